import { LifecycleTrends, InsightsRange, InstanceInsights, InstanceStatistics, textAnswer } from '@bunting/contracts';
import { Permission, principalOf, requirePermission, type DatabasePool, type HttpServer } from '@bunting/platform';
import type { AdminClient } from '../admin-client.ts';
import { dayRange } from './instance-insights.ts';
import { instanceStatistics, statisticsCsv } from './instance-statistics.ts';
import { lifecycleTrends } from './lifecycle-trends.ts';
import { recordSnapshot } from './trend-snapshots.ts';
import { trendStore } from './trend-store.ts';

/** The instance's trends: statistics, the lifecycle dashboard and the executive dashboard. */
export function trendRoutes(
  app: HttpServer,
  { db, admin, version }: { db: DatabasePool; admin: AdminClient; version: string },
) {
  // Instance statistics (deprecated in Unleash, kept): counts as of now.
  const statistics = async () => instanceStatistics(db, await admin.inventory(), version);
  app.get(
    '/api/admin/instance-admin/statistics',
    { schema: { summary: 'Counts of everything in the installation', response: { 200: InstanceStatistics } } },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      return statistics();
    },
  );
  app.get(
    '/api/admin/instance-admin/statistics/csv',
    {
      schema: {
        summary: 'Counts of everything in the installation, as CSV',
        response: { 200: textAnswer('text/csv', 'The statistics as CSV: a header line and one line of values') },
      },
    },
    async (request, reply) => {
      requirePermission(principalOf(request), Permission.READ);
      return reply.type('text/csv; charset=utf-8').send(statisticsCsv(await statistics()));
    },
  );

  app.get(
    '/api/admin/insights/lifecycle',
    { schema: { summary: 'How many flags moved through each lifecycle stage', response: { 200: LifecycleTrends } } },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      return lifecycleTrends(await admin.inventory());
    },
  );

  // The executive dashboard and its replacement, /api/admin/insights. Looking brings today's snapshot up to date first.
  for (const [path, summary] of [
    ['/api/admin/dashboard/executive', "The instance's trends over a range of weeks"],
    ['/api/admin/insights', "The instance's trends over a range of weeks (older address)"],
  ] as const) {
    app.get(
      path,
      { schema: { summary, querystring: InsightsRange, response: { 200: InstanceInsights } } },
      async (request) => {
        requirePermission(principalOf(request), Permission.READ);
        const range = dayRange(request.query, new Date());
        await recordSnapshot(db, await admin.inventory());
        return trendStore.instanceInsights(db, range);
      },
    );
  }
}
