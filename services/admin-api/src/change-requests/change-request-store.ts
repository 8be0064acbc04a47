import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

const RequestRow = z.object({
  id: z.number(),
  project: z.string(),
  environment: z.string(),
  state: z.string(),
  title: z.string().nullable(),
  createdByUserId: z.number().nullable(),
  createdByName: z.string(),
  createdByImageUrl: z.string().nullable(),
  createdAt: z.string(),
  stateTimestamps: z.record(z.string(), z.string()),
  scheduledAt: z.string().nullable(),
  scheduleStatus: z.string().nullable(),
  scheduleReason: z.string().nullable(),
  scheduledByUserId: z.number().nullable(),
  scheduledByName: z.string().nullable(),
});
export type RequestRow = z.infer<typeof RequestRow>;

const ChangeRow = z.object({
  id: z.number(),
  changeRequestId: z.number(),
  feature: z.string().nullable(),
  action: z.string(),
  payload: z.unknown(),
  snapshot: z.unknown(),
  createdByUserId: z.number().nullable(),
  createdByName: z.string(),
  createdByImageUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type ChangeRow = z.infer<typeof ChangeRow>;

const PersonRow = z.object({
  changeRequestId: z.number(),
  userId: z.number(),
  username: z.string(),
  imageUrl: z.string().nullable(),
  createdAt: z.string(),
});
const CommentRow = z.object({
  id: z.number(),
  changeRequestId: z.number(),
  text: z.string(),
  createdByName: z.string(),
  createdByImageUrl: z.string().nullable(),
  createdAt: z.string(),
});

const requestColumns = sql.fragment`id, project_id as project, environment, state, title, created_by_user_id as "createdByUserId",
  created_by_name as "createdByName", created_by_image_url as "createdByImageUrl", created_at as "createdAt",
  state_timestamps as "stateTimestamps", scheduled_at as "scheduledAt", schedule_status as "scheduleStatus",
  schedule_reason as "scheduleReason", scheduled_by_user_id as "scheduledByUserId", scheduled_by_name as "scheduledByName"`;
const changeColumns = sql.fragment`id, change_request_id as "changeRequestId", feature, action, payload, snapshot,
  created_by_user_id as "createdByUserId", created_by_name as "createdByName", created_by_image_url as "createdByImageUrl", created_at as "createdAt"`;

export type Author = { userId: number | null; name: string; imageUrl: string | null };

type Reviewer = { userId: number; name: string; imageUrl: string | null };
/** Approvals and rejections are kept alike, each in a table of its own. */
type VerdictTable = 'change_request_approvals' | 'change_request_rejections';

function verdicts(db: Queryable, table: VerdictTable, changeRequestIds: readonly number[]) {
  return db.any(sql.type(PersonRow)`
    select change_request_id as "changeRequestId", user_id as "userId", username, image_url as "imageUrl", created_at as "createdAt"
    from ${sql.identifier(['admin', table])} where change_request_id = any(${sql.array(changeRequestIds, 'int4')}) order by created_at`);
}

function addVerdict(db: Queryable, table: VerdictTable, id: number, user: Reviewer) {
  // Named in full, so what a store writes can be read from its text (the table-owner check does).
  return table === 'change_request_approvals'
    ? db.query(sql.unsafe`
      insert into admin.change_request_approvals (change_request_id, user_id, username, image_url) values (${id}, ${user.userId}, ${user.name}, ${user.imageUrl})
      on conflict do nothing`)
    : db.query(sql.unsafe`
      insert into admin.change_request_rejections (change_request_id, user_id, username, image_url) values (${id}, ${user.userId}, ${user.name}, ${user.imageUrl})
      on conflict do nothing`);
}

export const changeRequestStore = {
  get(db: Queryable, id: number, options: { forUpdate?: boolean; skipLocked?: boolean } = {}) {
    const lock = options.forUpdate
      ? options.skipLocked
        ? sql.fragment`for update skip locked`
        : sql.fragment`for update`
      : sql.fragment``;
    return db.maybeOne(
      sql.type(RequestRow)`select ${requestColumns} from admin.change_requests where id = ${id} ${lock}`,
    );
  },
  /** The author's draft in a project environment, locked so two changes added at once join the same one. */
  draftOf(db: Queryable, project: string, environment: string, author: Author) {
    return db.maybeOne(sql.type(RequestRow)`
      select ${requestColumns} from admin.change_requests
      where project_id = ${project} and environment = ${environment} and state = 'Draft'
        and created_by_user_id is not distinct from ${author.userId} and created_by_name = ${author.name}
      for update`);
  },
  /** A new draft; null when another one for the same author appeared at the same moment. */
  insert(db: WriteTx, project: string, environment: string, author: Author) {
    return db.maybeOneFirst(sql.type(z.object({ id: z.number() }))`
      insert into admin.change_requests (project_id, environment, state, created_by_user_id, created_by_name, created_by_image_url, state_timestamps)
      values (${project}, ${environment}, 'Draft', ${author.userId}, ${author.name}, ${author.imageUrl}, jsonb_build_object('Draft', now()))
      on conflict do nothing
      returning id`);
  },
  setState(db: WriteTx, id: number, state: string) {
    return db.query(sql.unsafe`
      update admin.change_requests set state = ${state}, state_timestamps = state_timestamps || jsonb_build_object(${state}::text, now())
      where id = ${id}`);
  },
  setTitle(db: WriteTx, id: number, title: string) {
    return db.query(sql.unsafe`update admin.change_requests set title = ${title} where id = ${id}`);
  },
  setSchedule(
    db: WriteTx,
    id: number,
    schedule: {
      at: string | null;
      status: string | null;
      reason: string | null;
      byUserId?: number | null;
      byName?: string | null;
    },
  ) {
    const by =
      schedule.byName !== undefined
        ? sql.fragment`, scheduled_by_user_id = ${schedule.byUserId ?? null}, scheduled_by_name = ${schedule.byName}`
        : sql.fragment``;
    return db.query(sql.unsafe`
      update admin.change_requests set scheduled_at = ${schedule.at}, schedule_status = ${schedule.status}, schedule_reason = ${schedule.reason} ${by}
      where id = ${id}`);
  },
  delete(db: WriteTx, id: number) {
    return db.query(sql.unsafe`delete from admin.change_requests where id = ${id}`);
  },
  list(
    db: Queryable,
    filter: {
      project?: string;
      ids?: readonly number[];
      states?: readonly string[];
      createdByUserId?: number;
      createdBy?: readonly number[];
      reviewer?: readonly number[];
      feature?: string;
      limit?: number;
      offset?: number;
    },
  ) {
    const conditions = [sql.fragment`true`];
    if (filter.project !== undefined) conditions.push(sql.fragment`project_id = ${filter.project}`);
    if (filter.ids !== undefined) conditions.push(sql.fragment`id = any(${sql.array(filter.ids, 'int4')})`);
    if (filter.states !== undefined) conditions.push(sql.fragment`state = any(${sql.array(filter.states, 'text')})`);
    if (filter.createdByUserId !== undefined)
      conditions.push(sql.fragment`created_by_user_id = ${filter.createdByUserId}`);
    if (filter.createdBy !== undefined)
      conditions.push(sql.fragment`created_by_user_id = any(${sql.array(filter.createdBy, 'int4')})`);
    if (filter.reviewer !== undefined) {
      conditions.push(
        sql.fragment`exists (select 1 from admin.change_request_reviewers r where r.change_request_id = change_requests.id and r.user_id = any(${sql.array(filter.reviewer, 'int4')}))`,
      );
    }
    if (filter.feature !== undefined) {
      conditions.push(
        sql.fragment`exists (select 1 from admin.change_request_changes c where c.change_request_id = change_requests.id and c.feature = ${filter.feature})`,
      );
    }
    const page =
      filter.limit !== undefined ? sql.fragment`limit ${filter.limit} offset ${filter.offset ?? 0}` : sql.fragment``;
    return db.any(
      sql.type(
        RequestRow,
      )`select ${requestColumns} from admin.change_requests where ${sql.join(conditions, sql.fragment` and `)} order by id desc ${page}`,
    );
  },
  count(
    db: Queryable,
    filter: { states?: readonly string[]; createdBy?: readonly number[]; reviewer?: readonly number[] },
  ) {
    const conditions = [sql.fragment`true`];
    if (filter.states !== undefined) conditions.push(sql.fragment`state = any(${sql.array(filter.states, 'text')})`);
    if (filter.createdBy !== undefined)
      conditions.push(sql.fragment`created_by_user_id = any(${sql.array(filter.createdBy, 'int4')})`);
    if (filter.reviewer !== undefined) {
      conditions.push(
        sql.fragment`exists (select 1 from admin.change_request_reviewers r where r.change_request_id = change_requests.id and r.user_id = any(${sql.array(filter.reviewer, 'int4')}))`,
      );
    }
    return db.oneFirst(
      sql.type(
        z.object({ count: z.number() }),
      )`select count(*)::int as count from admin.change_requests where ${sql.join(conditions, sql.fragment` and `)}`,
    );
  },
  countByState(db: Queryable, project: string) {
    return db.any(sql.type(z.object({ state: z.string(), count: z.number() }))`
      select state, count(*)::int as count from admin.change_requests where project_id = ${project} group by state`);
  },
  /** Scheduled requests whose time has come, oldest first. */
  due(db: Queryable, limit: number) {
    return db.anyFirst(sql.type(z.object({ id: z.number() }))`
      select id from admin.change_requests where state = 'Scheduled' and schedule_status = 'pending' and scheduled_at <= now()
      order by scheduled_at limit ${limit}`);
  },
  /** Pending schedules whose scheduling user no longer exists. */
  orphanedSchedules(db: Queryable) {
    return db.any(sql.type(z.object({ id: z.number(), userId: z.number() }))`
      select c.id, c.scheduled_by_user_id as "userId" from admin.change_requests c
      where c.state = 'Scheduled' and c.schedule_status = 'pending' and c.scheduled_by_user_id is not null
        and not exists (select 1 from admin.users u where u.id = c.scheduled_by_user_id)`);
  },

  changes(db: Queryable, changeRequestIds: readonly number[]) {
    return db.any(sql.type(ChangeRow)`
      select ${changeColumns} from admin.change_request_changes where change_request_id = any(${sql.array(changeRequestIds, 'int4')}) order by id`);
  },
  change(db: Queryable, changeRequestId: number, id: number) {
    return db.maybeOne(
      sql.type(
        ChangeRow,
      )`select ${changeColumns} from admin.change_request_changes where change_request_id = ${changeRequestId} and id = ${id}`,
    );
  },
  insertChange(
    db: WriteTx,
    changeRequestId: number,
    change: { feature: string | null; action: string; payload: unknown; snapshot: unknown },
    author: Author,
  ) {
    return db.oneFirst(sql.type(z.object({ id: z.number() }))`
      insert into admin.change_request_changes (change_request_id, feature, action, payload, snapshot, created_by_user_id, created_by_name, created_by_image_url)
      values (${changeRequestId}, ${change.feature}, ${change.action}, ${sql.jsonb(change.payload as never)}, ${change.snapshot === undefined ? null : sql.jsonb(change.snapshot as never)},
        ${author.userId}, ${author.name}, ${author.imageUrl})
      returning id`);
  },
  deleteChange(db: WriteTx, changeRequestId: number, id: number) {
    return db.query(
      sql.unsafe`delete from admin.change_request_changes where change_request_id = ${changeRequestId} and id = ${id}`,
    );
  },
  /** Scheduled requests with a change touching the flag or the strategy. */
  scheduledTouching(
    db: Queryable,
    project: string,
    filter: { feature?: string | undefined; strategyId?: string | undefined },
  ) {
    const matches = [
      ...(filter.feature ? [sql.fragment`c.feature = ${filter.feature}`] : []),
      ...(filter.strategyId ? [sql.fragment`c.payload ->> 'id' = ${filter.strategyId}`] : []),
    ];
    if (matches.length === 0) return Promise.resolve([]);
    return db.any(sql.type(z.object({ id: z.number(), environment: z.string(), title: z.string().nullable() }))`
      select distinct r.id, r.environment, r.title from admin.change_requests r join admin.change_request_changes c on c.change_request_id = r.id
      where r.project_id = ${project} and r.state = 'Scheduled' and (${sql.join(matches, sql.fragment` or `)}) order by r.id`);
  },

  approvals: (db: Queryable, changeRequestIds: readonly number[]) =>
    verdicts(db, 'change_request_approvals', changeRequestIds),
  addApproval: (db: Queryable, id: number, user: Reviewer) => addVerdict(db, 'change_request_approvals', id, user),
  clearApprovals(db: WriteTx, id: number) {
    return db.query(sql.unsafe`delete from admin.change_request_approvals where change_request_id = ${id}`);
  },
  rejections: (db: Queryable, changeRequestIds: readonly number[]) =>
    verdicts(db, 'change_request_rejections', changeRequestIds),
  addRejection: (db: Queryable, id: number, user: Reviewer) => addVerdict(db, 'change_request_rejections', id, user),
  comments(db: Queryable, changeRequestIds: readonly number[]) {
    return db.any(sql.type(CommentRow)`
      select id, change_request_id as "changeRequestId", text, created_by_name as "createdByName", created_by_image_url as "createdByImageUrl", created_at as "createdAt"
      from admin.change_request_comments where change_request_id = any(${sql.array(changeRequestIds, 'int4')}) order by id`);
  },
  addComment(db: WriteTx, id: number, text: string, author: Author) {
    return db.query(sql.unsafe`
      insert into admin.change_request_comments (change_request_id, text, created_by_user_id, created_by_name, created_by_image_url)
      values (${id}, ${text}, ${author.userId}, ${author.name}, ${author.imageUrl})`);
  },
  reviewers(db: Queryable, id: number) {
    return db.anyFirst(sql.type(z.object({ userId: z.number() }))`
      select user_id as "userId" from admin.change_request_reviewers where change_request_id = ${id} order by user_id`);
  },
  async setReviewers(db: WriteTx, id: number, userIds: readonly number[]) {
    await db.query(sql.unsafe`delete from admin.change_request_reviewers where change_request_id = ${id}`);
    await db.query(sql.unsafe`
      insert into admin.change_request_reviewers (change_request_id, user_id)
      select ${id}, unnest(${sql.array(userIds, 'int4')}) on conflict do nothing`);
  },
};
