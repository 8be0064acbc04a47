import { z } from 'zod';
import { FeatureMetrics, FeatureMetricsRaw, PathName, RawMetricsQuery, UnknownFlags } from '@bunting/contracts';
import { Permission, principalOf, requirePermission, type DatabasePool, type HttpServer } from '@bunting/platform';
import type { AdminClient } from '../admin-client.ts';
import { metricStore } from './metric-store.ts';

type Report = { environment: string; seenAt: string };

/** A flag's SDK metrics, hour by hour, and the flags SDKs report that the configuration lacks. */
export function featureMetricRoutes(
  app: HttpServer,
  { db, admin }: { db: DatabasePool; admin: Pick<AdminClient, 'inventory'> },
) {
  // A flag's usage as Unleash sums it (the last hour and the whole kept period per environment, the applications
  // that reported it), with the last 48 hours per hour, environment and application in `data`.
  app.get(
    '/api/admin/client-metrics/features/:name',
    {
      schema: {
        summary: "A flag's usage in the last hour, per environment and application",
        params: z.object({ name: PathName }),
        response: { 200: FeatureMetrics },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const featureName = request.params.name;
      const data = await metricStore.ofFeature(db, featureName, 48);
      const lastHour = data.filter((row) => Date.parse(row.timestamp) >= Date.now() - 3_600_000);
      const byEnvironment = (rows: typeof data) => {
        const sums = new Map<string, { yes: number; no: number; timestamp: string }>();
        for (const row of rows) {
          const sum = sums.get(row.environment) ?? { yes: 0, no: 0, timestamp: row.timestamp };
          sums.set(row.environment, {
            yes: sum.yes + row.yes,
            no: sum.no + row.no,
            timestamp: row.timestamp > sum.timestamp ? row.timestamp : sum.timestamp,
          });
        }
        return [...sums].map(([environment, sum]) => ({ environment, ...sum }));
      };
      return {
        version: 1,
        maturity: 'stable',
        featureName,
        lastHourUsage: byEnvironment(lastHour).map(({ environment, timestamp, yes, no }) => ({
          featureName,
          environment,
          timestamp,
          yes,
          no,
        })),
        totalUsage: byEnvironment(data).map(({ environment, yes, no }) => ({ environment, yes, no })),
        seenApplications: [...new Set(data.map((row) => row.appName))].sort(),
        data,
      };
    },
  );

  app.get(
    '/api/admin/client-metrics/features/:name/raw',
    {
      schema: {
        summary: "A flag's usage hour by hour",
        params: z.object({ name: PathName }),
        querystring: RawMetricsQuery,
        response: { 200: FeatureMetricsRaw },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      return {
        version: 1,
        maturity: 'stable',
        data: await metricStore.ofFeature(db, request.params.name, request.query.hoursBack ?? 1),
      };
    },
  );

  // Flags SDKs reported in the last week that the configuration does not have.
  app.get(
    '/api/admin/metrics/unknown-flags',
    { schema: { summary: 'Flags SDKs asked about that do not exist', response: { 200: UnknownFlags } } },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const known = new Set(Object.keys((await admin.inventory()).featureProjects));
      const flags = new Map<
        string,
        { name: string; lastSeenAt: string; lastEventAt: null; reports: Map<string, Report[]> }
      >();
      for (const row of await metricStore.seenLastWeek(db)) {
        if (known.has(row.name)) continue;
        const flag = flags.get(row.name) ?? {
          name: row.name,
          lastSeenAt: row.seenAt,
          lastEventAt: null,
          reports: new Map(),
        };
        if (row.seenAt > flag.lastSeenAt) flag.lastSeenAt = row.seenAt;
        flag.reports.set(row.appName, [
          ...(flag.reports.get(row.appName) ?? []),
          { environment: row.environment, seenAt: row.seenAt },
        ]);
        flags.set(row.name, flag);
      }
      return {
        unknownFlags: [...flags.values()].map((flag) => ({
          ...flag,
          reports: [...flag.reports].map(([appName, environments]) => ({ appName, environments })),
        })),
      };
    },
  );
}
