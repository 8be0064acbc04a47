import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

export const ApiTokenRow = z.object({
  id: z.number(),
  tokenName: z.string(),
  type: z.enum(['admin', 'client', 'frontend']),
  environment: z.string(),
  projects: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
  alias: z.string().nullable(),
  namedBackend: z.boolean(),
});
export type ApiTokenRow = z.infer<typeof ApiTokenRow>;

const columns = sql.fragment`id, token_name as "tokenName", type, environment, projects,
  expires_at as "expiresAt", created_at as "createdAt", seen_at as "seenAt", alias, named_backend as "namedBackend"`;

export const apiTokenStore = {
  insert(
    db: WriteTx,
    token: {
      secretHash: string;
      tokenName: string;
      type: string;
      environment: string;
      projects: string[];
      expiresAt: string | null;
      namedBackend?: boolean;
    },
  ) {
    return db.one(sql.type(ApiTokenRow)`
      insert into admin.api_tokens (secret_hash, token_name, type, environment, projects, expires_at, named_backend)
      values (${token.secretHash}, ${token.tokenName}, ${token.type}, ${token.environment},
              ${sql.array(token.projects, 'text')}, ${token.expiresAt}, ${token.namedBackend ?? false})
      returning ${columns}`);
  },
  findById(db: Queryable, id: number) {
    return db.maybeOne(sql.type(ApiTokenRow)`select ${columns} from admin.api_tokens where id = ${id}`);
  },
  findByHash(db: Queryable, secretHash: string) {
    return db.maybeOne(
      sql.type(ApiTokenRow)`select ${columns} from admin.api_tokens where secret_hash = ${secretHash}`,
    );
  },
  list(db: Queryable) {
    return db.any(sql.type(ApiTokenRow)`select ${columns} from admin.api_tokens order by created_at, id`);
  },
  listByName(db: Queryable, name: string) {
    return db.any(
      sql.type(ApiTokenRow)`select ${columns} from admin.api_tokens where token_name = ${name} order by id`,
    );
  },
  listForProject(db: Queryable, project: string) {
    return db.any(sql.type(ApiTokenRow)`
      select ${columns} from admin.api_tokens where ${project} = any(projects) order by created_at, id`);
  },
  updateExpiry(db: WriteTx, id: number, expiresAt: string) {
    return db.one(sql.type(ApiTokenRow)`
      update admin.api_tokens set expires_at = ${expiresAt} where id = ${id} returning ${columns}`);
  },
  /** Deletes a token; the hash of its secret, so that a use of it afterwards is known for what it is. */
  async delete(db: WriteTx, id: number): Promise<string | null> {
    return (await db.maybeOneFirst(sql.unsafe`delete from admin.api_tokens where id = ${id} returning secret_hash`)) as
      string | null;
  },
  /** Every token by the hash of its secret, for the SDK edge. */
  hashes(db: Queryable, only?: string) {
    return db.any(sql.type(
      ApiTokenRow.pick({
        tokenName: true,
        type: true,
        environment: true,
        projects: true,
        expiresAt: true,
        createdAt: true,
      }).extend({ hash: z.string() }),
    )`
      select secret_hash as hash, token_name as "tokenName", type, environment, projects, expires_at as "expiresAt", created_at as "createdAt"
      from admin.api_tokens ${only === undefined ? sql.fragment`` : sql.fragment`where secret_hash = ${only}`} order by id`);
  },
  touchSeen(db: WriteTx, ids: number[]) {
    return db.query(sql.unsafe`update admin.api_tokens set seen_at = now() where id = any(${sql.array(ids, 'int4')})`);
  },
  environmentExists(db: Queryable, name: string) {
    return db.exists(sql.unsafe`select 1 from admin.environments where name = ${name}`);
  },
  existingProjects(db: Queryable, ids: readonly string[]) {
    return db.anyFirst(
      sql.type(z.object({ id: z.string() }))`select id from admin.projects where id = any(${sql.array(ids, 'text')})`,
    );
  },
  exists(db: Queryable) {
    return db.exists(sql.unsafe`select 1 from admin.api_tokens`);
  },
};
