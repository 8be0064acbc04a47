import { z } from 'zod';
import { metricsEnvironment, type MetricsMessage } from '@bunting/contracts';
import { sql, type DatabasePool, type Queryable } from '@bunting/platform';

/** Records application-created for applications seen for the first time, in the caller's transaction. */
export type AnnounceApplications = (tx: Queryable, apps: readonly string[]) => Promise<void>;

/** Names reported that no flag has are kept up to these bounds: per application, and in all. */
export const UNKNOWN_FLAGS_PER_APP = 1000;
export const UNKNOWN_FLAGS_IN_ALL = 10_000;

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

/** What one message says, as hourly rows and the apps it shows alive. Names over 255 characters are skipped. */
export function metricFacts(message: MetricsMessage): MetricFacts {
  if (message.kind === 'bulk-metrics') return bulkFacts(message);
  const { appName, instanceId, sdkVersion } = message.body;
  if (appName === undefined || !fits(appName)) return { apps: [], rows: [], instances: [] };
  const frontend = message.kind.startsWith('frontend');
  const instances = instanceId && fits(instanceId)
    ? [{ app: appName, instanceId, environment: message.environment, sdkVersion: sdkVersion ?? null, frontend }]
    : [];
  if (message.kind === 'client-register' || message.kind === 'frontend-register') {
    const registration = { app: appName, sdkVersion: sdkVersion ?? null, strategies: (message.body.strategies ?? []).filter(fits).slice(0, 100) };
    return { apps: [appName], rows: [], registration, instances };
  }
  const { bucket } = message.body;
  const hour = bucketHour(bucket.start, message.receivedAt).toISOString();
  const rows = Object.entries(bucket.toggles).filter(([feature]) => fits(feature)).map(([feature, counts]) => ({
    hour, app: appName, environment: message.environment, feature, yes: counts.yes ?? 0, no: counts.no ?? 0,
    variants: Object.entries(counts.variants ?? {}).filter(([name]) => fits(name)),
  }));
  return { apps: [appName], rows, instances };
}

/** A bulk post: each entry counts in its own environment when the token may speak for it. */
function bulkFacts(message: Extract<MetricsMessage, { kind: 'bulk-metrics' }>): MetricFacts {
  const rows = (message.body.metrics ?? []).flatMap((metric) => {
    const environment = metricsEnvironment(message, metric.environment);
    if (!environment || !fits(metric.featureName) || !fits(metric.appName) || !fits(environment)) return [];
    return [{
      hour: bucketHour(metric.timestamp, message.receivedAt).toISOString(),
      app: metric.appName, environment, feature: metric.featureName, yes: metric.yes, no: metric.no,
      variants: Object.entries(metric.variants ?? {}).filter(([name]) => fits(name)),
    }];
  });
  const applications = (message.body.applications ?? []).flatMap((application) => {
    const environment = metricsEnvironment(message, application.environment);
    return environment && application.appName !== undefined && fits(application.appName) ? [{ ...application, appName: application.appName, environment }] : [];
  });
  const apps = new Set([...applications.map((application) => application.appName), ...rows.map((row) => row.app)]);
  const instances = applications.flatMap((application) => (application.instanceId && fits(application.instanceId)
    ? [{ app: application.appName, instanceId: application.instanceId, environment: application.environment, sdkVersion: application.sdkVersion ?? null, frontend: false }]
    : []));
  return { apps: [...apps], rows, instances };
}

/**
 * Keeps the rows about flags no project has only while the names of such flags stay within bounds (per application
 * and in all); a name seen before is always kept. Serialised by a lock, so two messages cannot both take the last place.
 */
async function withinUnknownBounds(tx: Queryable, rows: MetricRow[], unknown: ReadonlySet<string>): Promise<MetricRow[]> {
  await tx.query(sql.unsafe`select pg_advisory_xact_lock(hashtext('insights.unknown_flags'))`);
  const kept: MetricRow[] = [];
  const admitted = new Set<string>();
  for (const row of rows) {
    if (!unknown.has(row.feature)) {
      kept.push(row);
      continue;
    }
    const key = `${row.app}\u0000${row.feature}`;
    if (!admitted.has(key)) {
      const inserted = await tx.query(sql.unsafe`
        insert into insights.unknown_flags (app_name, feature_name)
        select ${row.app}, ${row.feature}
        where exists (select 1 from insights.unknown_flags where app_name = ${row.app} and feature_name = ${row.feature})
          or ((select count(*) from insights.unknown_flags where app_name = ${row.app}) < ${UNKNOWN_FLAGS_PER_APP}
            and (select count(*) from insights.unknown_flags) < ${UNKNOWN_FLAGS_IN_ALL})
        on conflict do nothing`);
      const known = inserted.rowCount > 0
        || (await tx.exists(sql.unsafe`select 1 from insights.unknown_flags where app_name = ${row.app} and feature_name = ${row.feature}`));
      if (!known) continue;
      admitted.add(key);
    }
    kept.push(row);
  }
  return kept;
}

const column = <K extends keyof MetricRow>(rows: MetricRow[], key: K) => rows.map((row) => row[key]);

/** One metrics message of a run, with its stream sequence (what makes recording it idempotent). */
export type SequencedMetrics = { message: MetricsMessage; sequence: number };

/**
 * Adds one metrics or registration message to the hourly sums and the list of applications. Sums are not
 * idempotent by themselves, so the message's stream sequence is recorded in the same transaction and a
 * redelivered message changes nothing.
 */
export function recordMetrics(
  db: DatabasePool,
  message: MetricsMessage,
  streamSequence: number,
  announce: AnnounceApplications,
  unknownAmong: (names: readonly string[]) => Promise<ReadonlySet<string>> = async () => new Set(),
): Promise<void> {
  return recordMetricsRun(db, [{ message, sequence: streamSequence }], announce, unknownAmong);
}

/** The latest of two ISO times (either may be absent). */
const later = (a: string | undefined, b: string) => (a === undefined || Date.parse(b) > Date.parse(a) ? b : a);

/**
 * Records a run of messages as recordMetrics records each, in ONE transaction and a few statements: under a fleet's
 * posts (hundreds a second) a transaction per message, each with its own commit, left insights seconds behind. Rows
 * for the same hour, application, environment and flag are summed into one upsert, in key order, so two replicas'
 * runs take their row locks in the same order. Messages already recorded (by sequence) are left out.
 */
export async function recordMetricsRun(
  db: DatabasePool,
  run: readonly SequencedMetrics[],
  announce: AnnounceApplications,
  unknownAmong: (names: readonly string[]) => Promise<ReadonlySet<string>> = async () => new Set(),
): Promise<void> {
  const items = run.map((item) => ({ ...item, facts: metricFacts(item.message) })).filter((item) => item.facts.apps.length > 0);
  if (items.length === 0) return;
  const unknown = await unknownAmong([...new Set(items.flatMap((item) => item.facts.rows.map((row) => row.feature)))]);
  await db.transaction(async (tx) => {
    const fresh = new Set(await tx.anyFirst(sql.type(z.object({ sequence: z.number() }))`
      insert into insights.processed_metrics (stream_sequence)
      select unnest(${sql.array(items.map((item) => item.sequence), 'int8')}::int8[])
      on conflict do nothing returning stream_sequence::int8 as sequence`));
    const recorded = items.filter((item) => fresh.has(item.sequence));
    if (recorded.length === 0) return;

    // Each application's last sighting, and each instance's: the latest time, and the last SDK version told in order.
    const lastSeen = new Map<string, string>();
    const instances = new Map<string, Instance & { lastSeen: string }>();
    for (const { message, facts } of recorded) {
      for (const app of facts.apps) lastSeen.set(app, later(lastSeen.get(app), message.receivedAt));
      for (const instance of facts.instances) {
        const key = `${instance.app}\u0000${instance.instanceId}\u0000${instance.environment}`;
        const known = instances.get(key);
        instances.set(key, {
          ...(known ?? instance),
          sdkVersion: instance.sdkVersion ?? known?.sdkVersion ?? null,
          lastSeen: later(known?.lastSeen, message.receivedAt),
        });
      }
    }
    const apps = [...lastSeen.keys()].sort();
    const times = apps.map((app) => lastSeen.get(app)!);
    const created = await tx.anyFirst(sql.type(z.object({ app: z.string() }))`
      insert into insights.applications (app_name, first_seen, last_seen)
      select app, seen, seen from unnest(${sql.array(apps, 'text')}::text[], ${sql.array(times, 'timestamptz')}::timestamptz[]) as t(app, seen)
      on conflict (app_name) do nothing returning app_name as app`);
    await announce(tx, created);
    const sightings = [...instances.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, instance]) => instance);
    if (sightings.length > 0) {
      await tx.query(sql.unsafe`
        insert into insights.application_instances (app_name, instance_id, environment, sdk_version, frontend, last_seen)
        select * from unnest(${sql.array(sightings.map((item) => item.app), 'text')}::text[], ${sql.array(sightings.map((item) => item.instanceId), 'text')}::text[],
          ${sql.array(sightings.map((item) => item.environment), 'text')}::text[], ${sql.array(sightings.map((item) => item.sdkVersion), 'text')}::text[],
          ${sql.array(sightings.map((item) => item.frontend), 'bool')}::bool[], ${sql.array(sightings.map((item) => item.lastSeen), 'timestamptz')}::timestamptz[])
        on conflict (app_name, instance_id, environment) do update set last_seen = greatest(insights.application_instances.last_seen, excluded.last_seen),
          sdk_version = coalesce(excluded.sdk_version, insights.application_instances.sdk_version)`);
    }
    await tx.query(sql.unsafe`update insights.applications set last_seen = greatest(insights.applications.last_seen, t.seen)
      from unnest(${sql.array(apps, 'text')}::text[], ${sql.array(times, 'timestamptz')}::timestamptz[]) as t(app, seen)
      where app_name = t.app`);
    const rows: MetricRow[] = [];
    for (const { facts } of recorded) {
      if (facts.registration) {
        const { registration } = facts;
        await tx.query(sql.unsafe`update insights.applications set sdk_version = ${registration.sdkVersion},
          strategies = ${sql.jsonb(registration.strategies)} where app_name = ${registration.app}`);
      }
      const kept = unknown.size === 0 || !facts.rows.some((row) => unknown.has(row.feature)) ? facts.rows : await withinUnknownBounds(tx, facts.rows, unknown);
      for (const row of kept) rows.push(row);
    }
    if (rows.length === 0) return;
    // Sum rows for the same key first (one insert may not update a row twice), in key order.
    await tx.query(sql.unsafe`
      insert into insights.metric_hours (hour, app_name, environment, feature_name, yes, no)
      select hour, app, environment, feature, sum(yes), sum(no)
      from unnest(${sql.array(column(rows, 'hour'), 'timestamptz')}::timestamptz[], ${sql.array(column(rows, 'app'), 'text')}::text[],
        ${sql.array(column(rows, 'environment'), 'text')}::text[], ${sql.array(column(rows, 'feature'), 'text')}::text[],
        ${sql.array(column(rows, 'yes'), 'int8')}::int8[], ${sql.array(column(rows, 'no'), 'int8')}::int8[])
        as t(hour, app, environment, feature, yes, no)
      group by hour, app, environment, feature
      order by hour, app, environment, feature
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
      order by hour, app, environment, feature, variant
      on conflict (hour, app_name, environment, feature_name, variant)
      do update set count = insights.metric_variant_hours.count + excluded.count`);
  });
}
