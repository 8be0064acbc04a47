import { z } from 'zod';
import { ProjectInsights, ProjectStatusAnswer, ProjectDora, ProjectApplicationList, UnknownFlags, LifecycleTrends, HealthReport, InsightsRange, InstanceInsights, InstanceStatistics, PathName, ProjectApplicationsQuery, textAnswer } from '@bunting/contracts';
import { NotFoundError, Permission, principalOf, requirePermission, type DatabasePool, type HttpServer } from '@bunting/platform';
import type { AdminClient } from './admin-client.ts';
import { dayRange, instanceInsights } from './instance-insights.ts';
import { instanceStatistics, statisticsCsv } from './instance-statistics.ts';
import { leadTimes, projectWindows } from './project-windows.ts';
import { lifecycleTrends } from './lifecycle-trends.ts';
import { projectStatus } from './project-status.ts';
import { projectApplications, unknownFlags } from './application-queries.ts';
import { recordSnapshot } from './trend-snapshots.ts';

export type InsightsDeps = { db: DatabasePool; admin: AdminClient; version: string };

export function insightsRoutes(app: HttpServer, { db, admin, version }: InsightsDeps) {
  // The health report: admin-api's view of the project, with the time windows only insights keeps.
  app.get('/api/admin/projects/:projectId/health-report', {
    schema: { params: z.object({ projectId: PathName }), response: { 200: HealthReport } },
  }, async (request) => {
    const { projectId } = request.params;
    const principal = principalOf(request);
    requirePermission(principal, Permission.READ, { project: projectId });
    const [overview, stats] = await Promise.all([admin.projectOverview(projectId, principal.key), projectWindows(db, projectId)]);
    if (!overview) throw new NotFoundError(`Could not find project with id ${projectId}`);
    return { ...overview, stats };
  });

  // Unleash's project insights (deprecated there, kept): the health report's numbers, lead times, flag types.
  app.get('/api/admin/projects/:projectId/insights', { schema: { params: z.object({ projectId: PathName }), response: { 200: ProjectInsights } } }, async (request) => {
    const { projectId } = request.params;
    const principal = principalOf(request);
    requirePermission(principal, Permission.READ, { project: projectId });
    const [overview, stats] = await Promise.all([admin.projectOverview(projectId, principal.key), projectWindows(db, projectId)]);
    if (!overview) throw new NotFoundError(`Could not find project with id ${projectId}`);
    const counts = { activeCount: overview.activeCount, potentiallyStaleCount: overview.potentiallyStaleCount, staleCount: overview.staleCount };
    const types = new Map<string, number>();
    for (const feature of overview.features) types.set(feature.type, (types.get(feature.type) ?? 0) + 1);
    return {
      stats,
      health: { rating: overview.health, ...counts },
      technicalDebt: { rating: overview.technicalDebt, ...counts },
      leadTime: await leadTimes(db, projectId, overview.features.map((feature) => feature.name)),
      featureTypeCounts: [...types].map(([type, count]) => ({ type, count })).sort((a, b) => a.type.localeCompare(b.type)),
      members: { currentMembers: overview.members, change: stats.projectMembersAddedCurrentWindow },
    };
  });

  app.get('/api/admin/projects/:projectId/status', { schema: { params: z.object({ projectId: PathName }), response: { 200: ProjectStatusAnswer } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ, { project: request.params.projectId });
    return projectStatus(db, await admin.inventory(), request.params.projectId);
  });

  // Lead time to production of the project's flags (DORA).
  app.get('/api/admin/projects/:projectId/dora', { schema: { params: z.object({ projectId: PathName }), response: { 200: ProjectDora } } }, async (request) => {
    const { projectId } = request.params;
    const principal = principalOf(request);
    requirePermission(principal, Permission.READ, { project: projectId });
    const overview = await admin.projectOverview(projectId, principal.key);
    if (!overview) throw new NotFoundError(`Could not find project with id ${projectId}`);
    return leadTimes(db, projectId, overview.features.map((feature) => feature.name));
  });

  app.get('/api/admin/projects/:projectId/applications', {
    schema: { params: z.object({ projectId: PathName }), querystring: ProjectApplicationsQuery, response: { 200: ProjectApplicationList } },
  }, async (request) => {
    requirePermission(principalOf(request), Permission.READ, { project: request.params.projectId });
    return projectApplications(db, request.params.projectId, request.query);
  });

  app.get('/api/admin/metrics/unknown-flags', { schema: { response: { 200: UnknownFlags } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const inventory = await admin.inventory();
    return unknownFlags(db, new Set(Object.keys(inventory.featureProjects)));
  });

  // Instance statistics (deprecated in Unleash, kept): counts as of now.
  const statistics = async () => instanceStatistics(db, await admin.inventory(), version);
  app.get('/api/admin/instance-admin/statistics', { schema: { response: { 200: InstanceStatistics } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    return statistics();
  });
  app.get('/api/admin/instance-admin/statistics/csv', { schema: { response: { 200: textAnswer('text/csv', 'The statistics as CSV: a header line and one line of values') } } }, async (request, reply) => {
    requirePermission(principalOf(request), Permission.READ);
    return reply.type('text/csv; charset=utf-8').send(statisticsCsv(await statistics()));
  });

  app.get('/api/admin/insights/lifecycle', { schema: { response: { 200: LifecycleTrends } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    return lifecycleTrends(await admin.inventory());
  });

  // The executive dashboard and its replacement, /api/admin/insights. Looking brings today's snapshot up to date first.
  for (const path of ['/api/admin/dashboard/executive', '/api/admin/insights']) {
    app.get(path, { schema: { querystring: InsightsRange, response: { 200: InstanceInsights } } }, async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const range = dayRange(request.query, new Date());
      await recordSnapshot(db, await admin.inventory());
      return instanceInsights(db, range);
    });
  }
}
