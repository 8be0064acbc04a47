import { z } from 'zod';
import { HealthReport, PathName, ProjectDora, ProjectInsights, ProjectStatusAnswer } from '@bunting/contracts';
import {
  NotFoundError,
  Permission,
  principalOf,
  requirePermission,
  type DatabasePool,
  type HttpServer,
} from '@bunting/platform';
import type { AdminClient } from '../admin-client.ts';
import { factStore } from '../facts/fact-store.ts';
import { projectStatus } from './project-status.ts';

/** Days from creation to the first enabling in production, per flag that got there, and their average. */
async function leadTimes(db: DatabasePool, projectId: string, flags: readonly string[]) {
  const features = await factStore.leadTimes(db, projectId, flags);
  const total = features.reduce((sum, feature) => sum + feature.timeToProduction, 0);
  return {
    projectAverage: features.length > 0 ? Math.round((total / features.length) * 100) / 100 : 0,
    features: [...features],
  };
}

const ProjectParams = z.object({ projectId: PathName });

/** A project's reports: admin-api's view of the project beside the time windows only insights keeps. */
export function projectRoutes(app: HttpServer, { db, admin }: { db: DatabasePool; admin: AdminClient }) {
  const overviewOf = async (projectId: string, principalKey: string) => {
    const overview = await admin.projectOverview(projectId, principalKey);
    if (!overview) throw new NotFoundError(`Could not find project with id ${projectId}`);
    return overview;
  };

  app.get(
    '/api/admin/projects/:projectId/health-report',
    {
      schema: {
        summary: "A project's health: stale and potentially stale flags",
        params: ProjectParams,
        response: { 200: HealthReport },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const principal = principalOf(request);
      requirePermission(principal, Permission.READ, { project: projectId });
      const [overview, stats] = await Promise.all([
        overviewOf(projectId, principal.key),
        factStore.projectWindows(db, projectId),
      ]);
      return { ...overview, stats };
    },
  );

  // Unleash's project insights (deprecated there, kept): the health report's numbers, lead times, flag types.
  app.get(
    '/api/admin/projects/:projectId/insights',
    {
      schema: {
        summary: "A project's trends: flags created and archived, time to production, changes",
        params: ProjectParams,
        response: { 200: ProjectInsights },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const principal = principalOf(request);
      requirePermission(principal, Permission.READ, { project: projectId });
      const [overview, stats] = await Promise.all([
        overviewOf(projectId, principal.key),
        factStore.projectWindows(db, projectId),
      ]);
      const counts = {
        activeCount: overview.activeCount,
        potentiallyStaleCount: overview.potentiallyStaleCount,
        staleCount: overview.staleCount,
      };
      const types = new Map<string, number>();
      for (const feature of overview.features) types.set(feature.type, (types.get(feature.type) ?? 0) + 1);
      return {
        stats,
        health: { rating: overview.health, ...counts },
        technicalDebt: { rating: overview.technicalDebt, ...counts },
        leadTime: await leadTimes(
          db,
          projectId,
          overview.features.map((feature) => feature.name),
        ),
        featureTypeCounts: [...types]
          .map(([type, count]) => ({ type, count }))
          .sort((a, b) => a.type.localeCompare(b.type)),
        members: { currentMembers: overview.members, change: stats.projectMembersAddedCurrentWindow },
      };
    },
  );

  app.get(
    '/api/admin/projects/:projectId/status',
    {
      schema: {
        summary: "A project's activity by day, resources, health and lifecycle summary",
        params: ProjectParams,
        response: { 200: ProjectStatusAnswer },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ, { project: request.params.projectId });
      return projectStatus(db, await admin.inventory(), request.params.projectId);
    },
  );

  // Lead time to production of the project's flags (DORA).
  app.get(
    '/api/admin/projects/:projectId/dora',
    {
      schema: {
        summary: 'Time to production per flag and on average',
        params: ProjectParams,
        response: { 200: ProjectDora },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const principal = principalOf(request);
      requirePermission(principal, Permission.READ, { project: projectId });
      const overview = await overviewOf(projectId, principal.key);
      return leadTimes(
        db,
        projectId,
        overview.features.map((feature) => feature.name),
      );
    },
  );
}
