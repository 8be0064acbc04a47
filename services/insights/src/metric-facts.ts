import { z } from 'zod';
import { metricsEnvironment, type MetricsMessage } from '@bunting/contracts';
import { sql, type DatabasePool, type Queryable } from '@bunting/platform';

/** Records application-created for applications seen for the first time, in the caller's transaction. */
export type AnnounceApplications = (tx: Queryable, apps: readonly string[]) => Promise<void>;

const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).catch(0);
const Variants = z.record(z.string(), Count).optional().catch(undefined);
const ToggleCounts = z.object({ yes: Count.optional(), no: Count.optional(), variants: Variants });
const AppName = z.string().min(1).max(255);

/** An SDK's metrics or registration post: one app with one bucket of toggles, or what it says of itself. */
const SingleBody = z.object({
  appName: AppName,
  instanceId: z.string().min(1).max(255).optional().catch(undefined),
  sdkVersion: z.string().max(255).optional().catch(undefined),
  strategies: z.array(z.string().max(255)).max(100).optional().catch(undefined),
  bucket: z.object({ start: z.string().optional(), toggles: z.record(z.string(), ToggleCounts.catch({})) }).optional(),
});
/** A bulk post (/api/client/metrics/bulk, as Unleash Edge sends): registrations and per-flag counts of many apps. */
const BulkBody = z.object({
  applications: z.array(z.object({
    appName: AppName,
    instanceId: z.string().min(1).max(255).optional().catch(undefined),
    sdkVersion: z.string().max(255).optional().catch(undefined),
    environment: z.string().max(255).optional().catch(undefined),
  }).loose().catch({ appName: '' })).optional().catch(undefined),
  metrics: z.array(z.object({
    featureName: z.string(),
    appName: z.string(),
    environment: z.string().optional(),
    timestamp: z.union([z.string(), z.number()]).optional(),
    yes: Count.optional(),
    no: Count.optional(),
    variants: Variants,
  }).loose().nullable().catch(null)).optional().catch(undefined),
});

const HOUR_MS = 3_600_000;
const MAX_SKEW_MS = 2 * 24 * HOUR_MS;

/** The hour a bucket belongs to: its own start, unless missing or implausibly far from when it arrived. */
export function bucketHour(start: string | number | undefined, receivedAt: string): Date {
  const received = Date.parse(receivedAt);
  const claimed = start === undefined ? Number.NaN : typeof start === 'number' ? start : Date.parse(start);
  const at = Number.isFinite(claimed) && Math.abs(claimed - received) <= MAX_SKEW_MS ? claimed : received;
  return new Date(Math.floor(at / HOUR_MS) * HOUR_MS);
}

export type MetricRow = { hour: string; app: string; environment: string; feature: string; yes: number; no: number; variants: [string, number][] };
export type Registration = { app: string; sdkVersion: string | null; strategies: string[] };
export type Instance = { app: string; instanceId: string; environment: string; sdkVersion: string | null; frontend: boolean };
export type MetricFacts = { apps: string[]; rows: MetricRow[]; registration?: Registration; instances: Instance[] };

const fits = (name: string) => name.length > 0 && name.length <= 255;

/** What one message says, as hourly rows and the apps it shows alive; nothing for a body of neither shape. */
export function metricFacts(message: MetricsMessage): MetricFacts {
  const single = SingleBody.safeParse(message.body);
  if (single.success) {
    const { appName, bucket, sdkVersion, strategies, instanceId } = single.data;
    const hour = bucketHour(bucket?.start, message.receivedAt).toISOString();
    const rows = Object.entries(bucket?.toggles ?? {}).filter(([feature]) => fits(feature)).map(([feature, counts]) => ({
      hour, app: appName, environment: message.environment, feature, yes: counts.yes ?? 0, no: counts.no ?? 0,
      variants: Object.entries(counts.variants ?? {}).filter(([name]) => fits(name)),
    }));
    const registration = message.kind.endsWith('register') ? { registration: { app: appName, sdkVersion: sdkVersion ?? null, strategies: strategies ?? [] } } : {};
    const frontend = message.kind.startsWith('frontend');
    const instances = instanceId ? [{ app: appName, instanceId, environment: message.environment, sdkVersion: sdkVersion ?? null, frontend }] : [];
    return { apps: [appName], rows, ...registration, instances };
  }
  const bulk = BulkBody.safeParse(message.body);
  if (!bulk.success) return { apps: [], rows: [], instances: [] };
  const rows = (bulk.data.metrics ?? []).flatMap((metric) => {
    const environment = metric && metricsEnvironment(message, metric.environment);
    if (!metric || !environment || !fits(metric.featureName) || !fits(metric.appName) || !fits(environment)) return [];
    return [{
      hour: bucketHour(metric.timestamp, message.receivedAt).toISOString(),
      app: metric.appName, environment, feature: metric.featureName, yes: metric.yes ?? 0, no: metric.no ?? 0,
      variants: Object.entries(metric.variants ?? {}).filter(([name]) => fits(name)),
    }];
  });
  const applications = (bulk.data.applications ?? []).flatMap((application) => {
    const environment = metricsEnvironment(message, application.environment);
    return environment ? [{ ...application, environment }] : [];
  });
  const apps = new Set([...applications.map((application) => application.appName), ...rows.map((row) => row.app)]);
  const instances = applications.flatMap((application) => (application.instanceId && fits(application.appName)
    ? [{ app: application.appName, instanceId: application.instanceId, environment: application.environment, sdkVersion: application.sdkVersion ?? null, frontend: false }]
    : []));
  return { apps: [...apps].filter(fits), rows, instances };
}

const column = <K extends keyof MetricRow>(rows: MetricRow[], key: K) => rows.map((row) => row[key]);

/**
 * Adds one metrics or registration message to the hourly sums and the list of applications. Sums are not
 * idempotent by themselves, so the message's stream sequence is recorded in the same transaction and a
 * redelivered message changes nothing.
 */
export async function recordMetrics(db: DatabasePool, message: MetricsMessage, streamSequence: number, announce: AnnounceApplications): Promise<void> {
  const { apps, rows, registration, instances } = metricFacts(message);
  if (apps.length === 0) return;
  await db.transaction(async (tx) => {
    const fresh = await tx.query(sql.unsafe`
      insert into insights.processed_metrics (stream_sequence) values (${streamSequence}) on conflict do nothing`);
    if (fresh.rowCount === 0) return;
    const created = await tx.anyFirst(sql.type(z.object({ app: z.string() }))`
      insert into insights.applications (app_name, first_seen, last_seen)
      select app, ${message.receivedAt}::timestamptz, ${message.receivedAt}::timestamptz from unnest(${sql.array(apps, 'text')}::text[]) as t(app)
      on conflict (app_name) do nothing returning app_name as app`);
    await announce(tx, created);
    for (const instance of instances) {
      await tx.query(sql.unsafe`
        insert into insights.application_instances (app_name, instance_id, environment, sdk_version, frontend, last_seen)
        values (${instance.app}, ${instance.instanceId}, ${instance.environment}, ${instance.sdkVersion}, ${instance.frontend}, ${message.receivedAt})
        on conflict (app_name, instance_id, environment) do update set last_seen = greatest(insights.application_instances.last_seen, excluded.last_seen),
          sdk_version = coalesce(excluded.sdk_version, insights.application_instances.sdk_version)`);
    }
    await tx.query(sql.unsafe`update insights.applications set last_seen = greatest(last_seen, ${message.receivedAt}::timestamptz)
      where app_name = any(${sql.array(apps, 'text')})`);
    if (registration) {
      await tx.query(sql.unsafe`update insights.applications set sdk_version = ${registration.sdkVersion},
        strategies = ${sql.jsonb(registration.strategies)} where app_name = ${registration.app}`);
    }
    if (rows.length === 0) return;
    // Sum rows for the same key first: one insert may not update a row twice.
    await tx.query(sql.unsafe`
      insert into insights.metric_hours (hour, app_name, environment, feature_name, yes, no)
      select hour, app, environment, feature, sum(yes), sum(no)
      from unnest(${sql.array(column(rows, 'hour'), 'timestamptz')}::timestamptz[], ${sql.array(column(rows, 'app'), 'text')}::text[],
        ${sql.array(column(rows, 'environment'), 'text')}::text[], ${sql.array(column(rows, 'feature'), 'text')}::text[],
        ${sql.array(column(rows, 'yes'), 'int8')}::int8[], ${sql.array(column(rows, 'no'), 'int8')}::int8[])
        as t(hour, app, environment, feature, yes, no)
      group by hour, app, environment, feature
      on conflict (hour, app_name, environment, feature_name)
      do update set yes = insights.metric_hours.yes + excluded.yes, no = insights.metric_hours.no + excluded.no`);
    const variants = rows.flatMap((row) => row.variants.map(([variant, count]) => ({ ...row, variant, count })));
    if (variants.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.metric_variant_hours (hour, app_name, environment, feature_name, variant, count)
      select hour, app, environment, feature, variant, sum(count)
      from unnest(${sql.array(variants.map((row) => row.hour), 'timestamptz')}::timestamptz[],
        ${sql.array(variants.map((row) => row.app), 'text')}::text[], ${sql.array(variants.map((row) => row.environment), 'text')}::text[],
        ${sql.array(variants.map((row) => row.feature), 'text')}::text[], ${sql.array(variants.map((row) => row.variant), 'text')}::text[],
        ${sql.array(variants.map((row) => row.count), 'int8')}::int8[]) as t(hour, app, environment, feature, variant, count)
      group by hour, app, environment, feature, variant
      on conflict (hour, app_name, environment, feature_name, variant)
      do update set count = insights.metric_variant_hours.count + excluded.count`);
  });
}
