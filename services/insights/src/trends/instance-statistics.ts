import { createHash } from 'node:crypto';
import type { InstanceStatistics, Inventory } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { trendStore } from './trend-store.ts';

/** A checksum over every other field, in order, so a copy of the statistics that was edited shows it. */
export function statisticsSum(statistics: Omit<InstanceStatistics, 'sum'>): string {
  return createHash('sha256').update(JSON.stringify(statistics)).digest('hex');
}

export async function instanceStatistics(
  db: Queryable,
  inventory: Inventory,
  version: string,
): Promise<InstanceStatistics> {
  const observed = await trendStore.observed(db);
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
    SAMLenabled: inventory.samlEnabled === true,
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
    readOnlyUsers: inventory.users.readOnly ?? 0,
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
