import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

const ApplicationRow = z.object({
  appName: z.string(),
  sdkVersion: z.string().nullable(),
  strategies: z.array(z.string()),
  description: z.string().nullable(),
  url: z.string().nullable(),
  color: z.string().nullable(),
  icon: z.string().nullable(),
  usage: z.array(z.object({ project: z.string(), environments: z.array(z.string()) })),
});
export type ApplicationRow = z.infer<typeof ApplicationRow>;

/** Where an application's flags live, by the metrics it sent: each project with the environments it was seen in. */
const usage = sql.fragment`coalesce((
  select json_agg(json_build_object('project', u.project, 'environments', u.environments) order by u.project)
  from (select p.project, array_agg(distinct m.environment order by m.environment) as environments
    from insights.metric_hours m join insights.feature_projects p on p.feature_name = m.feature_name
    where m.app_name = a.app_name group by p.project) u), '[]')`;

const columns = sql.fragment`a.app_name as "appName", a.sdk_version as "sdkVersion", a.strategies, a.description, a.url, a.color, a.icon,
  ${usage} as usage`;

const Instance = z.object({ instanceId: z.string(), sdkVersion: z.string().nullable(), lastSeen: z.string() });
const EnvironmentOverview = z.object({
  name: z.string(),
  instanceCount: z.number(),
  sdks: z.array(z.string()),
  frontendSdks: z.array(z.string()),
  backendSdks: z.array(z.string()),
  lastSeen: z.string().nullable(),
});
const InstanceSdk = z.object({ appName: z.string(), sdkVersion: z.string().nullable() });
const ProjectApplication = z.object({
  name: z.string(),
  environments: z.array(z.string()),
  sdkVersion: z.string().nullable(),
  instances: z.array(z.string()),
});

export type InstanceSighting = {
  app: string;
  instanceId: string;
  environment: string;
  sdkVersion: string | null;
  frontend: boolean;
  lastSeen: string;
};
export type ApplicationDescription = {
  description?: string | undefined;
  url?: string | undefined;
  color?: string | undefined;
  icon?: string | undefined;
  strategies?: string[] | undefined;
};

/** Applications SDKs announced and their instances: the only writer of insights.applications and insights.application_instances. */
export const applicationStore = {
  async list(db: Queryable, page: { query?: string | undefined; offset: number; limit: number; descending: boolean }) {
    const filter = page.query
      ? sql.fragment`where a.app_name ilike ${`%${page.query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`}`
      : sql.fragment``;
    const direction = page.descending ? sql.fragment`desc` : sql.fragment`asc`;
    const [rows, total] = await Promise.all([
      db.any(sql.type(ApplicationRow)`select ${columns} from insights.applications a ${filter}
        order by a.app_name ${direction} limit ${page.limit} offset ${page.offset}`),
      db.oneFirst(
        sql.type(z.object({ total: z.number() }))`select count(*)::int as total from insights.applications a ${filter}`,
      ),
    ]);
    return { rows, total };
  },

  get(db: Queryable, appName: string) {
    return db.maybeOne(
      sql.type(ApplicationRow)`select ${columns} from insights.applications a where a.app_name = ${appName}`,
    );
  },

  exists(db: Queryable, appName: string) {
    return db.exists(sql.unsafe`select 1 from insights.applications where app_name = ${appName}`);
  },

  /** Adds the applications not known yet, as first seen at the given times; returns the names added. */
  addSeen(tx: Queryable, apps: readonly string[], times: readonly string[]) {
    return tx.anyFirst(sql.type(z.object({ app: z.string() }))`
      insert into insights.applications (app_name, first_seen, last_seen)
      select app, seen, seen from unnest(${sql.array([...apps], 'text')}::text[], ${sql.array([...times], 'timestamptz')}::timestamptz[]) as t(app, seen)
      on conflict (app_name) do nothing returning app_name as app`);
  },

  async markSeen(tx: Queryable, apps: readonly string[], times: readonly string[]) {
    await tx.query(sql.unsafe`update insights.applications set last_seen = greatest(insights.applications.last_seen, t.seen)
      from unnest(${sql.array([...apps], 'text')}::text[], ${sql.array([...times], 'timestamptz')}::timestamptz[]) as t(app, seen)
      where app_name = t.app`);
  },

  async setRegistration(tx: Queryable, registration: { app: string; sdkVersion: string | null; strategies: string[] }) {
    await tx.query(sql.unsafe`update insights.applications set sdk_version = ${registration.sdkVersion},
      strategies = ${sql.jsonb(registration.strategies)} where app_name = ${registration.app}`);
  },

  async describe(tx: Queryable, appName: string, meta: ApplicationDescription) {
    await tx.query(sql.unsafe`update insights.applications set
      description = coalesce(${meta.description ?? null}, description), url = coalesce(${meta.url ?? null}, url),
      color = coalesce(${meta.color ?? null}, color), icon = coalesce(${meta.icon ?? null}, icon),
      strategies = coalesce(${meta.strategies ? sql.jsonb(meta.strategies) : null}, strategies)
      where app_name = ${appName}`);
  },

  async forget(tx: Queryable, appName: string) {
    await tx.query(sql.unsafe`delete from insights.application_instances where app_name = ${appName}`);
    await tx.query(sql.unsafe`delete from insights.applications where app_name = ${appName}`);
  },

  /** Instances' sightings, in key order (so two replicas take their row locks in the same order). */
  async recordInstances(tx: Queryable, sightings: readonly InstanceSighting[]) {
    if (sightings.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.application_instances (app_name, instance_id, environment, sdk_version, frontend, last_seen)
      select * from unnest(${sql.array(
        sightings.map((item) => item.app),
        'text',
      )}::text[], ${sql.array(
        sightings.map((item) => item.instanceId),
        'text',
      )}::text[],
        ${sql.array(
          sightings.map((item) => item.environment),
          'text',
        )}::text[], ${sql.array(
          sightings.map((item) => item.sdkVersion),
          'text',
        )}::text[],
        ${sql.array(
          sightings.map((item) => item.frontend),
          'bool',
        )}::bool[], ${sql.array(
          sightings.map((item) => item.lastSeen),
          'timestamptz',
        )}::timestamptz[])
      on conflict (app_name, instance_id, environment) do update set last_seen = greatest(insights.application_instances.last_seen, excluded.last_seen),
        sdk_version = coalesce(excluded.sdk_version, insights.application_instances.sdk_version)`);
  },

  async dropInstancesNotSeenSince(db: Queryable, since: string): Promise<number> {
    return (
      await db.query(sql.unsafe`delete from insights.application_instances where last_seen < ${since}::timestamptz`)
    ).rowCount;
  },

  instances(db: Queryable, appName: string, environment: string) {
    return db.any(sql.type(Instance)`
      select instance_id as "instanceId", sdk_version as "sdkVersion", last_seen as "lastSeen" from insights.application_instances
      where app_name = ${appName} and environment = ${environment} order by last_seen desc`);
  },

  environmentsOf(db: Queryable, appName: string) {
    return db.any(sql.type(EnvironmentOverview)`
      select environment as name, count(*)::int as "instanceCount",
        coalesce(array_agg(distinct sdk_version) filter (where sdk_version is not null), '{}') as sdks,
        coalesce(array_agg(distinct sdk_version) filter (where sdk_version is not null and frontend), '{}') as "frontendSdks",
        coalesce(array_agg(distinct sdk_version) filter (where sdk_version is not null and not frontend), '{}') as "backendSdks",
        max(last_seen) as "lastSeen"
      from insights.application_instances where app_name = ${appName} group by environment order by environment`);
  },

  projectsOf(db: Queryable, appName: string) {
    return db.anyFirst(sql.type(
      z.object({ project: z.string() }),
    )`select distinct p.project from insights.metric_hours m
      join insights.feature_projects p on p.feature_name = m.feature_name where m.app_name = ${appName} order by 1`);
  },

  featureCountOf(db: Queryable, appName: string) {
    return db.oneFirst(
      sql.type(
        z.object({ count: z.number() }),
      )`select count(distinct feature_name)::int as count from insights.metric_hours where app_name = ${appName}`,
    );
  },

  /** Flags the application reported, per environment, that no project has. */
  missingFeaturesOf(db: Queryable, appName: string) {
    return db.any(sql.type(
      z.object({ environment: z.string(), name: z.string() }),
    )`select distinct m.environment, m.feature_name as name
      from insights.metric_hours m where m.app_name = ${appName}
        and not exists (select 1 from insights.feature_projects p where p.feature_name = m.feature_name) order by 1, 2`);
  },

  /** Each application's SDK versions; only of the applications evaluating a project's flags when one is given. */
  instanceSdks(db: Queryable, projectId?: string) {
    if (projectId === undefined) {
      return db.any(sql.type(InstanceSdk)`select distinct app_name as "appName", sdk_version as "sdkVersion"
        from insights.application_instances where sdk_version is not null`);
    }
    return db.any(sql.type(InstanceSdk)`select distinct i.app_name as "appName", i.sdk_version as "sdkVersion"
      from insights.application_instances i where i.sdk_version is not null and exists (
        select 1 from insights.metric_hours m join insights.feature_projects p on p.feature_name = m.feature_name
        where m.app_name = i.app_name and p.project = ${projectId})`);
  },

  /** The applications that evaluated flags of one project, with the environments and instances they were seen in. */
  ofProject(db: Queryable, projectId: string) {
    return db.any(sql.type(ProjectApplication)`
      select m.app_name as name, array_agg(distinct m.environment order by m.environment) as environments, a.sdk_version as "sdkVersion",
        coalesce((select array_agg(distinct i.instance_id order by i.instance_id) from insights.application_instances i where i.app_name = m.app_name), '{}') as instances
      from insights.metric_hours m join insights.feature_projects p on p.feature_name = m.feature_name
      left join insights.applications a on a.app_name = m.app_name
      where p.project = ${projectId} group by m.app_name, a.sdk_version order by m.app_name`);
  },
};
