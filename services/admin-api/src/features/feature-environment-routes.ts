import { z } from 'zod';
import { FeatureEnvironmentView, NoContent, FeatureNames, PathName } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { featureEnvironmentService } from './feature-environment-service.ts';

const ProjectParams = z.object({ projectId: PathName });
const FeatureParams = z.object({ projectId: PathName, featureName: PathName });
const EnvironmentParams = FeatureParams.extend({ environment: PathName });

/** A flag in one environment: reading it and switching it on or off (one flag, or many at once). */
export function featureEnvironmentRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/projects/:projectId/features/:featureName/environments/:environment',
    {
      schema: {
        summary: "Get a flag's state and strategies in one environment",
        params: EnvironmentParams,
        response: { 200: FeatureEnvironmentView },
      },
    },
    async (request) => {
      const { projectId, featureName, environment } = request.params;
      allowRead(request, { project: projectId, environment });
      return featureEnvironmentService.get(db, projectId, featureName, environment);
    },
  );

  for (const [action, enabled] of [
    ['on', true],
    ['off', false],
  ] as const) {
    app.post(
      `/api/admin/projects/:projectId/features/:featureName/environments/:environment/${action}`,
      {
        schema: {
          summary: `Turn a flag ${action} in an environment`,
          params: EnvironmentParams,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        const { projectId, featureName, environment } = request.params;
        const principal = allow(request, Permission.UPDATE_FEATURE_ENVIRONMENT, { project: projectId, environment });
        await changes.run(principal, (change) =>
          featureEnvironmentService.setEnabled(change, projectId, featureName, environment, enabled),
        );
        return reply.code(200).send();
      },
    );

    app.post(
      `/api/admin/projects/:projectId/bulk_features/environments/:environment/${action}`,
      {
        schema: {
          summary: `Turn several flags ${action} in an environment`,
          params: ProjectParams.extend({ environment: PathName }),
          body: FeatureNames,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        const { projectId, environment } = request.params;
        const principal = allow(request, Permission.UPDATE_FEATURE_ENVIRONMENT, { project: projectId, environment });
        await changes.run(principal, async (change) => {
          for (const name of request.body.features)
            await featureEnvironmentService.setEnabled(change, projectId, name, environment, enabled);
        });
        return reply.code(200).send();
      },
    );
  }
}
