import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { InstanceStatistics, Inventory } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const int = z.number().int();
const Observed = z.object({
  instanceId: z.string(),
  enabledBuckets: int, variantBuckets: int,
  production30: int, production60: int, production90: int,
  appsAllTime: int, apps30: int, apps7: int,
  featureExports: int, featureImports: int,
});

/** The installation's id: made once, on the first request for it, and kept. */
async function instanceId(db: Queryable): Promise<void> {
  await db.query(sql.unsafe`insert into insights.instance (instance_id) values (${randomUUID()}) on conflict do nothing`);
}

function productionChanges(days: number) {
  return sql.fragment`(select count(*) from insights.events e
    join insights.environment_types t on t.name = e.environment and t.type = 'production'
    where e.created_at >= now() - make_interval(days => ${days}))::int`;
}

function appsSeen(days: number | null) {
  const since = days === null ? sql.fragment`` : sql.fragment`where last_seen >= now() - make_interval(days => ${days})`;
  return sql.fragment`(select count(*) from insights.applications ${since})::int`;
}

/** A checksum over every other field, in order, so a copy of the statistics that was edited shows it. */
export function statisticsSum(statistics: Omit<InstanceStatistics, 'sum'>): string {
  return createHash('sha256').update(JSON.stringify(statistics)).digest('hex');
}

export async function instanceStatistics(db: Queryable, inventory: Inventory, version: string): Promise<InstanceStatistics> {
  await instanceId(db);
  // "The previous day" is yesterday in UTC, whole hours from midnight to midnight.
  const observed = await db.one(sql.type(Observed)`
    select (select instance_id::text from insights.instance) as "instanceId",
      (select count(*) from insights.metric_hours
        where hour >= date_trunc('day', now() at time zone 'utc') at time zone 'utc' - interval '1 day'
          and hour < date_trunc('day', now() at time zone 'utc') at time zone 'utc')::int as "enabledBuckets",
      (select count(*) from insights.metric_variant_hours
        where hour >= date_trunc('day', now() at time zone 'utc') at time zone 'utc' - interval '1 day'
          and hour < date_trunc('day', now() at time zone 'utc') at time zone 'utc')::int as "variantBuckets",
      ${productionChanges(30)} as production30, ${productionChanges(60)} as production60, ${productionChanges(90)} as production90,
      ${appsSeen(null)} as "appsAllTime", ${appsSeen(30)} as apps30, ${appsSeen(7)} as apps7,
      (select count(*) from insights.events where type = 'features-exported')::int as "featureExports",
      (select count(*) from insights.events where type = 'features-imported')::int as "featureImports"`);
  const statistics: Omit<InstanceStatistics, 'sum'> = {
    instanceId: observed.instanceId,
    timestamp: new Date().toISOString(),
    versionOSS: version,
    versionEnterprise: version,
    users: inventory.users.total,
    serviceAccounts: inventory.users.serviceAccounts,
    previousDayMetricsBucketsCount: { enabledCount: observed.enabledBuckets, variantCount: observed.variantBuckets },
    activeUsers: inventory.users.seenWithin,
    productionChanges: { last30: observed.production30, last60: observed.production60, last90: observed.production90 },
    ...inventory.counts,
    SAMLenabled: false,
    OIDCenabled: inventory.oidcEnabled,
    passwordAuthEnabled: inventory.passwordAuthEnabled,
    clientApps: [
      { range: 'allTime', count: observed.appsAllTime },
      { range: '30d', count: observed.apps30 },
      { range: '7d', count: observed.apps7 },
    ],
    featureExports: observed.featureExports,
    featureImports: observed.featureImports,
    apiTokens: inventory.apiTokens,
    maxEnvironmentStrategies: inventory.maxEnvironmentStrategies,
    maxConstraints: inventory.maxConstraints,
    maxConstraintValues: inventory.maxConstraintValues,
  };
  return { ...statistics, sum: statisticsSum(statistics) };
}

function csvCell(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The statistics as two CSV lines, field names then values, objects written as JSON. */
export function statisticsCsv(statistics: InstanceStatistics): string {
  const entries = Object.entries(statistics);
  return `${entries.map(([name]) => csvCell(name)).join(',')}\n${entries.map(([, value]) => csvCell(value)).join(',')}\n`;
}
