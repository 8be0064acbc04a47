import { z } from 'zod';
import { ApplicationList, ApplicationView, ApplicationInstances, ApplicationOverview, OutdatedSdks, FeatureMetrics, FeatureMetricsRaw, NoContent, ApplicationsQuery, CreateApplication, PathName, RawMetricsQuery } from '@bunting/contracts';
import { NotFoundError, Permission, principalOf, requirePermission, sql, type DatabasePool, type HttpServer } from '@bunting/platform';
import type { AnnounceApplications } from './metric-facts.ts';
import { isOutdatedSdk, outdatedSdks } from './outdated-sdks.ts';

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

/** Where an application's flags live, by the metrics it sent: each project with the environments it was seen in. */
const usage = sql.fragment`coalesce((
  select json_agg(json_build_object('project', u.project, 'environments', u.environments) order by u.project)
  from (select p.project, array_agg(distinct m.environment order by m.environment) as environments
    from insights.metric_hours m join insights.feature_projects p on p.feature_name = m.feature_name
    where m.app_name = a.app_name group by p.project) u), '[]')`;

const columns = sql.fragment`a.app_name as "appName", a.sdk_version as "sdkVersion", a.strategies, a.description, a.url, a.color, a.icon,
  ${usage} as usage`;

function view(row: z.infer<typeof ApplicationRow>) {
  const optional = Object.fromEntries((['sdkVersion', 'description', 'url', 'color', 'icon'] as const).flatMap((key) => (row[key] ? [[key, row[key]]] : [])));
  return { appName: row.appName, ...optional, strategies: row.strategies, usage: row.usage };
}

const Instance = z.object({ instanceId: z.string(), sdkVersion: z.string().nullable(), lastSeen: z.string() });
const EnvironmentOverview = z.object({ name: z.string(), instanceCount: z.number(), sdks: z.array(z.string()), frontendSdks: z.array(z.string()), backendSdks: z.array(z.string()), lastSeen: z.string().nullable() });

const FeatureMetricRow = z.object({
  featureName: z.string(), appName: z.string(), environment: z.string(), timestamp: z.string(),
  yes: z.number(), no: z.number(), variants: z.record(z.string(), z.number()),
});

/** Applications seen through SDK registrations and metrics, and the metrics of one flag, hour by hour. */
export function applicationRoutes(app: HttpServer, db: DatabasePool, announce: AnnounceApplications) {
  app.get('/api/admin/metrics/applications', { schema: { querystring: ApplicationsQuery, response: { 200: ApplicationList } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const { query, offset = 0, limit = 1000, sortOrder = 'asc' } = request.query;
    const filter = query ? sql.fragment`where a.app_name ilike ${`%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`}` : sql.fragment``;
    const direction = sortOrder === 'desc' ? sql.fragment`desc` : sql.fragment`asc`;
    const [rows, total] = await Promise.all([
      db.any(sql.type(ApplicationRow)`select ${columns} from insights.applications a ${filter}
        order by a.app_name ${direction} limit ${limit} offset ${offset}`),
      db.oneFirst(sql.type(z.object({ total: z.number() }))`select count(*)::int as total from insights.applications a ${filter}`),
    ]);
    return { total, applications: rows.map(view) };
  });

  app.get('/api/admin/metrics/applications/:appName', { schema: { params: z.object({ appName: PathName }), response: { 200: ApplicationView } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const row = await db.maybeOne(sql.type(ApplicationRow)`select ${columns} from insights.applications a where a.app_name = ${request.params.appName}`);
    if (!row) throw new NotFoundError(`Could not find application ${request.params.appName}`);
    return view(row);
  });

  const AppParams = z.object({ appName: PathName });

  // Describes an application (made if it was not seen yet, recording application-created).
  app.post('/api/admin/metrics/applications/:appName', { schema: { params: AppParams, body: CreateApplication, response: { 200: NoContent } } }, async (request, reply) => {
    requirePermission(principalOf(request), Permission.UPDATE_APPLICATION);
    const { appName } = request.params;
    const meta = request.body;
    await db.transaction(async (tx) => {
      const created = await tx.anyFirst(sql.type(z.object({ app: z.string() }))`
        insert into insights.applications (app_name, first_seen, last_seen) values (${appName}, now(), now())
        on conflict (app_name) do nothing returning app_name as app`);
      await announce(tx, created);
      await tx.query(sql.unsafe`update insights.applications set
        description = coalesce(${meta.description ?? null}, description), url = coalesce(${meta.url ?? null}, url),
        color = coalesce(${meta.color ?? null}, color), icon = coalesce(${meta.icon ?? null}, icon),
        strategies = coalesce(${meta.strategies ? sql.jsonb(meta.strategies) : null}, strategies)
        where app_name = ${appName}`);
    });
    return reply.code(200).send();
  });

  // Forgets an application and its instances; it comes back when its SDK next reports.
  app.delete('/api/admin/metrics/applications/:appName', { schema: { params: AppParams, response: { 200: NoContent } } }, async (request, reply) => {
    requirePermission(principalOf(request), Permission.UPDATE_APPLICATION);
    await db.transaction(async (tx) => {
      await tx.query(sql.unsafe`delete from insights.application_instances where app_name = ${request.params.appName}`);
      await tx.query(sql.unsafe`delete from insights.applications where app_name = ${request.params.appName}`);
    });
    return reply.code(200).send();
  });

  app.get('/api/admin/metrics/instances/:appName/environment/:environment', {
    schema: { params: AppParams.extend({ environment: PathName }), response: { 200: ApplicationInstances } },
  }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const instances = await db.any(sql.type(Instance)`
      select instance_id as "instanceId", sdk_version as "sdkVersion", last_seen as "lastSeen" from insights.application_instances
      where app_name = ${request.params.appName} and environment = ${request.params.environment} order by last_seen desc`);
    return { instances: instances.map(({ sdkVersion, ...instance }) => ({ ...instance, sdkVersion })) };
  });

  // Where an application runs and which flags it asks for (missingFeatures: flags the configuration lacks).
  app.get('/api/admin/metrics/applications/:appName/overview', { schema: { params: AppParams, response: { 200: ApplicationOverview } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const { appName } = request.params;
    if (!(await db.exists(sql.unsafe`select 1 from insights.applications where app_name = ${appName}`))) {
      throw new NotFoundError(`Could not find application ${appName}`);
    }
    const [environments, projects, featureCount, missing] = await Promise.all([
      db.any(sql.type(EnvironmentOverview)`
        select environment as name, count(*)::int as "instanceCount",
          coalesce(array_agg(distinct sdk_version) filter (where sdk_version is not null), '{}') as sdks,
          coalesce(array_agg(distinct sdk_version) filter (where sdk_version is not null and frontend), '{}') as "frontendSdks",
          coalesce(array_agg(distinct sdk_version) filter (where sdk_version is not null and not frontend), '{}') as "backendSdks",
          max(last_seen) as "lastSeen"
        from insights.application_instances where app_name = ${appName} group by environment order by environment`),
      db.anyFirst(sql.type(z.object({ project: z.string() }))`select distinct p.project from insights.metric_hours m
        join insights.feature_projects p on p.feature_name = m.feature_name where m.app_name = ${appName} order by 1`),
      db.oneFirst(sql.type(z.object({ count: z.number() }))`select count(distinct feature_name)::int as count from insights.metric_hours where app_name = ${appName}`),
      db.any(sql.type(z.object({ environment: z.string(), name: z.string() }))`select distinct m.environment, m.feature_name as name
        from insights.metric_hours m where m.app_name = ${appName}
          and not exists (select 1 from insights.feature_projects p where p.feature_name = m.feature_name) order by 1, 2`),
    ]);
    return {
      projects,
      featureCount,
      environments: environments.map((environment) => ({
        ...environment,
        issues: {
          missingFeatures: missing.filter((row) => row.environment === environment.name).map((row) => row.name),
          outdatedSdks: environment.sdks.filter(isOutdatedSdk),
        },
      })),
      issues: { missingStrategies: [] },
    };
  });

  const InstanceSdk = z.object({ appName: z.string(), sdkVersion: z.string().nullable() });

  // SDK versions older than Unleash's minimum for them, with the applications running them.
  app.get('/api/admin/metrics/sdks/outdated', { schema: { response: { 200: OutdatedSdks } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const instances = await db.any(sql.type(InstanceSdk)`select distinct app_name as "appName", sdk_version as "sdkVersion"
      from insights.application_instances where sdk_version is not null`);
    return { sdks: outdatedSdks(instances) };
  });

  // The same for the applications that evaluate the project's flags.
  app.get('/api/admin/projects/:projectId/sdks/outdated', { schema: { params: z.object({ projectId: PathName }), response: { 200: OutdatedSdks } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ, { project: request.params.projectId });
    const instances = await db.any(sql.type(InstanceSdk)`select distinct i.app_name as "appName", i.sdk_version as "sdkVersion"
      from insights.application_instances i where i.sdk_version is not null and exists (
        select 1 from insights.metric_hours m join insights.feature_projects p on p.feature_name = m.feature_name
        where m.app_name = i.app_name and p.project = ${request.params.projectId})`);
    return { sdks: outdatedSdks(instances) };
  });

  const metricsOf = (name: string, hours: number) => db.any(sql.type(FeatureMetricRow)`
    select m.feature_name as "featureName", m.app_name as "appName", m.environment,
      to_char(m.hour at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as timestamp, m.yes::float8 as yes, m.no::float8 as no,
      coalesce((select json_object_agg(v.variant, v.count) from insights.metric_variant_hours v
        where v.hour = m.hour and v.app_name = m.app_name and v.environment = m.environment and v.feature_name = m.feature_name), '{}') as variants
    from insights.metric_hours m
    where m.feature_name = ${name} and m.hour >= date_trunc('hour', now()) - make_interval(hours => ${hours - 1})
    order by m.hour, m.environment, m.app_name`);

  // A flag's usage as Unleash sums it (the last hour and the whole kept period per environment, the applications
  // that reported it), with the last 48 hours per hour, environment and application in `data`.
  app.get('/api/admin/client-metrics/features/:name', { schema: { params: z.object({ name: PathName }), response: { 200: FeatureMetrics } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const featureName = request.params.name;
    const data = await metricsOf(featureName, 48);
    const lastHour = data.filter((row) => Date.parse(row.timestamp) >= Date.now() - 3_600_000);
    const byEnvironment = (rows: typeof data) => {
      const sums = new Map<string, { yes: number; no: number; timestamp: string }>();
      for (const row of rows) {
        const sum = sums.get(row.environment) ?? { yes: 0, no: 0, timestamp: row.timestamp };
        sums.set(row.environment, { yes: sum.yes + row.yes, no: sum.no + row.no, timestamp: row.timestamp > sum.timestamp ? row.timestamp : sum.timestamp });
      }
      return [...sums].map(([environment, sum]) => ({ environment, ...sum }));
    };
    return {
      version: 1,
      maturity: 'stable',
      featureName,
      lastHourUsage: byEnvironment(lastHour).map(({ environment, timestamp, yes, no }) => ({ featureName, environment, timestamp, yes, no })),
      totalUsage: byEnvironment(data).map(({ environment, yes, no }) => ({ environment, yes, no })),
      seenApplications: [...new Set(data.map((row) => row.appName))].sort(),
      data,
    };
  });

  app.get('/api/admin/client-metrics/features/:name/raw', {
    schema: { params: z.object({ name: PathName }), querystring: RawMetricsQuery, response: { 200: FeatureMetricsRaw } },
  }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    return { version: 1, maturity: 'stable', data: await metricsOf(request.params.name, request.query.hoursBack ?? 1) };
  });
}
