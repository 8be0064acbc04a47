import { z } from 'zod';
import { PathName, ProjectEnvironments, ProjectOverviewAnswer } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { projectEnvironments, projectOverview } from './project-overview.ts';

const ProjectParams = z.object({ projectId: PathName });

/** Read-only pages that gather a project's settings from several slices. */
export function projectOverviewRoutes(app: HttpServer, { db }: Pick<AdminDeps, 'db'>) {
  app.get(
    '/api/admin/projects/:projectId/overview',
    {
      schema: {
        summary: "A project's overview: its environments, members, stats and onboarding",
        params: ProjectParams,
        response: { 200: ProjectOverviewAnswer },
      },
    },
    async (request) => {
      const principal = allowRead(request, { project: request.params.projectId });
      return projectOverview(db, request.params.projectId, principal.key);
    },
  );

  app.get(
    '/api/admin/environments/project/:projectId',
    {
      schema: {
        summary: 'The environments of a project, with their state there',
        params: ProjectParams,
        response: { 200: ProjectEnvironments },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return projectEnvironments(db, request.params.projectId);
    },
  );
}
