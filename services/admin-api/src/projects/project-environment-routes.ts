import { z } from 'zod';
import {
  DefaultStrategyView,
  NoContent,
  CreateFeatureStrategy,
  PathName,
  ProjectEnvironmentInput,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { projectService } from './project-service.ts';

const ProjectParams = z.object({ projectId: PathName });

/** The environments of a project and the strategy flags get there when enabled without one. */
export function projectEnvironmentRoutes(app: HttpServer, { changes }: Pick<AdminDeps, 'changes'>) {
  app.post(
    '/api/admin/projects/:projectId/environments',
    {
      schema: {
        summary: 'Add an environment to a project',
        params: ProjectParams,
        body: ProjectEnvironmentInput,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_PROJECT, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        projectService.addEnvironment(change, request.params.projectId, request.body.environment),
      );
      return reply.code(200).send();
    },
  );

  app.delete(
    '/api/admin/projects/:projectId/environments/:environment',
    {
      schema: {
        summary: 'Remove an environment from a project',
        params: ProjectParams.extend({ environment: PathName }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_PROJECT, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        projectService.removeEnvironment(change, request.params.projectId, request.params.environment),
      );
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/environments/:environment/default-strategy',
    {
      schema: {
        summary: "Set the strategy new flags get in a project's environment",
        params: ProjectParams.extend({ environment: PathName }),
        body: CreateFeatureStrategy,
        response: { 200: DefaultStrategyView },
      },
    },
    async (request) => {
      const { projectId, environment } = request.params;
      const principal = allow(request, Permission.UPDATE_PROJECT, { project: projectId, environment });
      return changes.run(principal, (change) =>
        projectService.setDefaultStrategy(change, projectId, environment, request.body),
      );
    },
  );
}
