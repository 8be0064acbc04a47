import { AccessEntry, type AccessHistoryQuery } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import type { WriteTx } from '../events/write-tx.ts';

const columns = sql.fragment`id::int8 as id, uuid::text as uuid,
  to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, user_id as "userId", name, method, action,
  outcome, detail, address, user_agent as "userAgent"`;

export type AccessDraft = Omit<AccessEntry, 'id' | 'uuid' | 'at'>;

function conditions(filter: AccessHistoryQuery) {
  const parts = [sql.fragment`true`];
  if (filter.user !== undefined) {
    // A user id, or a name: as typed at sign-in, or the username or e-mail of the account an entry names.
    const id = /^\d{1,9}$/.test(filter.user) ? Number(filter.user) : null;
    parts.push(sql.fragment`(lower(name) = lower(${filter.user}) or user_id = ${id} or user_id in (
      select id from admin.users where lower(username) = lower(${filter.user}) or lower(email) = lower(${filter.user})))`);
  }
  if (filter.method) parts.push(sql.fragment`method = ${filter.method}`);
  if (filter.action) parts.push(sql.fragment`action = ${filter.action}`);
  if (filter.outcome) parts.push(sql.fragment`outcome = ${filter.outcome}`);
  if (filter.from) parts.push(sql.fragment`at >= ${filter.from}::timestamptz`);
  if (filter.to) parts.push(sql.fragment`at < ${filter.to}::timestamptz`);
  return sql.join(parts, sql.fragment` and `);
}

export const accessHistoryStore = {
  insert(db: WriteTx, entry: AccessDraft) {
    return db.one(sql.type(AccessEntry)`
      insert into admin.access_history (user_id, name, method, action, outcome, detail, address, user_agent)
      values (${entry.userId}, ${entry.name}, ${entry.method}, ${entry.action}, ${entry.outcome}, ${entry.detail},
        ${entry.address}, ${entry.userAgent})
      returning ${columns}`);
  },

  /** Newest first, with the number that match. */
  async list(db: Queryable, filter: AccessHistoryQuery) {
    const where = conditions(filter);
    const [entries, total] = await Promise.all([
      db.any(sql.type(AccessEntry)`
        select ${columns} from admin.access_history where ${where}
        order by id desc limit ${filter.limit ?? 100} offset ${filter.offset ?? 0}`),
      db.oneFirst(sql.unsafe`select count(*)::int from admin.access_history where ${where}`),
    ]);
    return { entries, total: total as number };
  },

  /** Entries after an id, oldest first: what an audit destination has not had yet. */
  after(db: Queryable, id: number, limit: number) {
    return db.any(
      sql.type(AccessEntry)`select ${columns} from admin.access_history where id > ${id} order by id limit ${limit}`,
    );
  },

  /** The last id before a time (0 when none): where a destination made then starts. */
  async lastIdBefore(db: Queryable, time: Date): Promise<number> {
    return Number(
      await db.oneFirst(
        sql.unsafe`select coalesce(max(id), 0)::int8 from admin.access_history where at < ${time.toISOString()}::timestamptz`,
      ),
    );
  },

  purgeBefore(db: WriteTx, time: Date) {
    return db.query(sql.unsafe`delete from admin.access_history where at < ${time.toISOString()}::timestamptz`);
  },

  revoke(db: WriteTx, credential: { hash: string; kind: string; name: string | null; userId: number | null }) {
    return db.query(sql.unsafe`
      insert into admin.revoked_credentials (hash, kind, name, user_id)
      values (${credential.hash}, ${credential.kind}, ${credential.name}, ${credential.userId})
      on conflict (hash) do nothing`);
  },

  revoked(db: Queryable, hash: string) {
    return db.maybeOne(sql.unsafe`
      select kind, name, user_id as "userId" from admin.revoked_credentials where hash = ${hash}`) as Promise<{
      kind: string;
      name: string | null;
      userId: number | null;
    } | null>;
  },
};
