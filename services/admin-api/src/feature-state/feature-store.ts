import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';
import { potentiallyStale } from '../rules/staleness-store.ts';
import type { CreatedFeature } from '@bunting/contracts';

export const FeatureRow = z.object({
  name: z.string(),
  project: z.string(),
  description: z.string().nullable(),
  type: z.string(),
  stale: z.boolean(),
  impressionData: z.boolean(),
  createdAt: z.string(),
  createdByUserId: z.number().nullable(),
  createdByName: z.string().nullable(),
  archivedAt: z.string().nullable(),
  lifecycleStage: z.string(),
  lifecycleEnteredAt: z.string(),
  /** kept or discarded, once completed. */
  lifecycleStatus: z.string().nullable(),
});
export type FeatureRow = z.infer<typeof FeatureRow>;

const columns = sql.fragment`name, project_id as project, description, type, stale, impression_data as "impressionData",
  created_at as "createdAt", created_by_user_id as "createdByUserId", created_by_name as "createdByName",
  archived_at as "archivedAt", lifecycle_stage as "lifecycleStage", lifecycle_entered_at as "lifecycleEnteredAt",
  case when lifecycle_stage = 'completed' then (select stage_row.status from admin.feature_lifecycle_stages stage_row
    where stage_row.feature_name = name and stage_row.stage = 'completed' order by stage_row.entered_at desc limit 1) end as "lifecycleStatus"`;

/** The fields the reference answers feature creation with. */
export function createdFeature(row: FeatureRow): CreatedFeature {
  return {
    name: row.name,
    description: row.description,
    type: row.type,
    project: row.project,
    stale: row.stale,
    createdAt: row.createdAt,
    impressionData: row.impressionData,
    archived: row.archivedAt !== null,
  };
}

/** The feature fields events carry as data/preData, as the reference records them. */
export function featureEventState(row: FeatureRow) {
  return { ...createdFeature(row), ...(row.archivedAt ? { archivedAt: row.archivedAt } : {}) };
}

export const featureStore = {
  get(db: Queryable, name: string) {
    return db.maybeOne(sql.type(FeatureRow)`select ${columns} from admin.features where name = ${name}`);
  },
  listByProject(db: Queryable, project: string, archived: boolean) {
    return db.any(sql.type(FeatureRow)`select ${columns} from admin.features where project_id = ${project}
      and ${archived ? sql.fragment`archived_at is not null` : sql.fragment`archived_at is null`} order by created_at, name`);
  },
  listActive(db: Queryable) {
    return db.any(
      sql.type(FeatureRow)`select ${columns} from admin.features where archived_at is null order by created_at, name`,
    );
  },
  listArchived(db: Queryable) {
    return db.any(
      sql.type(
        FeatureRow,
      )`select ${columns} from admin.features where archived_at is not null order by archived_at desc`,
    );
  },
  listByNames(db: Queryable, names: readonly string[]) {
    return db.any(
      sql.type(
        FeatureRow,
      )`select ${columns} from admin.features where name = any(${sql.array(names, 'text')}) order by created_at, name`,
    );
  },
  exists(db: Queryable, name: string) {
    return db.exists(sql.unsafe`select 1 from admin.features where name = ${name}`);
  },
  insert(
    db: WriteTx,
    feature: {
      name: string;
      project: string;
      description: string | null;
      type: string;
      impressionData: boolean;
      createdByUserId: number | null;
      createdByName: string;
    },
  ) {
    return db.one(sql.type(FeatureRow)`
      with inserted as (
        insert into admin.features (name, project_id, description, type, impression_data, created_by_user_id, created_by_name)
        values (${feature.name}, ${feature.project}, ${feature.description}, ${feature.type}, ${feature.impressionData},
          ${feature.createdByUserId}, ${feature.createdByName})
        returning *
      ), first_stage as (
        insert into admin.feature_lifecycle_stages (feature_name, stage, entered_at) select name, 'initial', created_at from inserted
      )
      select ${columns} from inserted`);
  },
  update(
    db: WriteTx,
    name: string,
    changes: { description: string | null; type: string; impressionData: boolean; stale: boolean },
  ) {
    return db.one(sql.type(FeatureRow)`
      update admin.features set description = ${changes.description}, type = ${changes.type},
        impression_data = ${changes.impressionData}, stale = ${changes.stale}
      where name = ${name} returning ${columns}`);
  },
  setArchived(db: WriteTx, name: string, archived: boolean) {
    return db.one(sql.type(FeatureRow)`
      update admin.features set archived_at = ${archived ? sql.fragment`now()` : null} where name = ${name} returning ${columns}`);
  },
  /** Moves a flag to a stage it is not in, and records the step in its lifecycle history. */
  async setLifecycle(
    db: WriteTx,
    name: string,
    stage: string,
    status: { status: string; statusValue: string | null } | null = null,
  ) {
    const moved = await db.query(sql.unsafe`
      update admin.features set lifecycle_stage = ${stage}, lifecycle_entered_at = now()
      where name = ${name} and lifecycle_stage <> ${stage}`);
    if (moved.rowCount > 0) {
      await db.query(sql.unsafe`insert into admin.feature_lifecycle_stages (feature_name, stage, status, status_value)
        values (${name}, ${stage}, ${status?.status ?? null}, ${status?.statusValue ?? null})`);
    }
    return moved;
  },
  delete(db: WriteTx, name: string) {
    return db.query(sql.unsafe`delete from admin.features where name = ${name}`);
  },
  /** Marks active flags that outlived their type's lifetime and were not marked yet; returns them. */
  markPotentiallyStale(db: WriteTx) {
    return db.any(sql.type(z.object({ name: z.string(), project: z.string() }))`
      update admin.features f set potentially_stale = true
      where f.archived_at is null and not f.potentially_stale and ${potentiallyStale}
      returning f.name, f.project_id as project`);
  },
  /** Flags no longer potentially stale (marked stale, or their type's lifetime grew) lose the mark. */
  unmarkPotentiallyStale(db: WriteTx) {
    return db.query(
      sql.unsafe`update admin.features f set potentially_stale = false where f.potentially_stale and not ${potentiallyStale}`,
    );
  },
  /** Who created the project's flags (every project's without one), for filtering by creator. */
  creators(db: Queryable, project?: string, limit = 10_000) {
    const inProject = project === undefined ? sql.fragment`` : sql.fragment`f.project_id = ${project} and`;
    return db.any(sql.type(z.object({ id: z.number(), name: z.string() }))`
      select distinct on (f.created_by_user_id) f.created_by_user_id as id,
        coalesce(u.name, u.username, u.email, f.created_by_name, 'unknown') as name
      from admin.features f left join admin.users u on u.id = f.created_by_user_id
      where ${inProject} f.created_by_user_id is not null
      order by f.created_by_user_id limit ${limit}`);
  },
  /**
   * Everyone who created a flag anywhere (archived ones too), a page of them by name: `q` matches the name anywhere
   * and the username or e-mail at its start, as Unleash's search does.
   */
  async creatorsPage(db: Queryable, page: { q?: string | undefined; offset: number; limit: number }) {
    const like = (page.q ?? '').replace(/[\\%_]/g, (character) => `\\${character}`);
    const matching = page.q
      ? sql.fragment`where name ilike ${`%${like}%`} or username ilike ${`${like}%`} or email ilike ${`${like}%`}`
      : sql.fragment``;
    const creators = sql.fragment`
      select distinct on (f.created_by_user_id) f.created_by_user_id as id,
        coalesce(u.name, u.username, u.email, f.created_by_name, 'unknown') as name, u.username, u.email
      from admin.features f left join admin.users u on u.id = f.created_by_user_id
      where f.created_by_user_id is not null order by f.created_by_user_id`;
    const rows = await db.any(sql.type(z.object({ id: z.number(), name: z.string(), total: z.number() }))`
      select id, name, count(*) over ()::int as total from (${creators}) creators ${matching}
      order by name, id limit ${page.limit} offset ${page.offset}`);
    const total =
      rows[0]?.total ??
      (page.offset > 0
        ? await db.oneFirst(
            sql.type(
              z.object({ count: z.number() }),
            )`select count(*)::int as count from (${creators}) creators ${matching}`,
          )
        : 0);
    return { flagCreators: rows.map(({ id, name }) => ({ id, name })), total };
  },
  /** Locks the feature row so concurrent changes to one feature apply one after another. */
  lock(db: Queryable, name: string) {
    return db.maybeOne(sql.type(FeatureRow)`select ${columns} from admin.features where name = ${name} for update`);
  },
};

export const EnvironmentStateRow = z.object({
  featureName: z.string(),
  environment: z.string(),
  enabled: z.boolean(),
  variants: z.array(z.record(z.string(), z.unknown())),
  lastSeenAt: z.string().nullable(),
});

export const featureEnvironmentStore = {
  get(db: Queryable, featureName: string, environment: string) {
    return db.maybeOne(sql.type(EnvironmentStateRow)`
      select feature_name as "featureName", environment, enabled, variants, last_seen_at as "lastSeenAt"
      from admin.feature_environments where feature_name = ${featureName} and environment = ${environment}`);
  },
  listFor(db: Queryable, featureNames: readonly string[]) {
    return db.any(sql.type(EnvironmentStateRow)`
      select feature_name as "featureName", environment, enabled, variants, last_seen_at as "lastSeenAt"
      from admin.feature_environments where feature_name = any(${sql.array(featureNames, 'text')})`);
  },
  setEnabled(db: WriteTx, featureName: string, environment: string, enabled: boolean) {
    return db.query(sql.unsafe`
      insert into admin.feature_environments (feature_name, environment, enabled) values (${featureName}, ${environment}, ${enabled})
      on conflict (feature_name, environment) do update set enabled = excluded.enabled`);
  },
  setVariants(db: WriteTx, featureName: string, environment: string, variants: unknown[]) {
    return db.query(sql.unsafe`
      insert into admin.feature_environments (feature_name, environment, variants)
      values (${featureName}, ${environment}, ${sql.jsonb(variants as object[])})
      on conflict (feature_name, environment) do update set variants = excluded.variants`);
  },
  disableAll(db: WriteTx, featureName: string) {
    return db.query(
      sql.unsafe`update admin.feature_environments set enabled = false where feature_name = ${featureName}`,
    );
  },
  /** Marks the flags seen at a time; the later of the stored and the new time wins. Unknown flags are skipped. */
  markSeen(db: WriteTx, environment: string, names: readonly string[], seenAt: string) {
    return db.query(sql.unsafe`
      insert into admin.feature_environments (feature_name, environment, last_seen_at)
      select f.name, e.name, ${seenAt}::timestamptz
      from admin.features f join admin.environments e on e.name = ${environment}
      where f.name = any(${sql.array([...names], 'text')})
      on conflict (feature_name, environment) do update
        set last_seen_at = greatest(coalesce(admin.feature_environments.last_seen_at, excluded.last_seen_at), excluded.last_seen_at)`);
  },
  /** Every flag's state in one environment copied into another (of the given projects, or all). */
  copyEnvironment(db: WriteTx, source: string, target: string, projects: readonly string[] | undefined) {
    const projectFilter =
      projects && projects.length > 0
        ? sql.fragment`and f.project_id = any(${sql.array([...projects], 'text')})`
        : sql.fragment``;
    return db.query(sql.unsafe`
      insert into admin.feature_environments (feature_name, environment, enabled, variants)
      select fe.feature_name, ${target}, fe.enabled, fe.variants from admin.feature_environments fe
      join admin.features f on f.name = fe.feature_name
      where fe.environment = ${source} ${projectFilter}`);
  },
};
