import { z } from 'zod';
import { FeatureList, NoContent, FeatureNames, PathName } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { findFeature } from '../feature-state/feature-lookup.ts';
import { featureService } from './feature-service.ts';

const ProjectParams = z.object({ projectId: PathName });

/** Archiving flags, the archive, reviving and deleting archived flags. */
export function archiveRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.post(
    '/api/admin/projects/:projectId/archive',
    {
      schema: {
        summary: 'Archive several flags',
        params: ProjectParams,
        body: FeatureNames,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_FEATURE, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        featureService.archiveAll(change, request.params.projectId, request.body.features),
      );
      return reply.code(202).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/revive',
    {
      schema: {
        summary: 'Bring several archived flags back',
        params: ProjectParams,
        body: FeatureNames,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: request.params.projectId });
      await changes.run(principal, async (change) => {
        for (const name of request.body.features) await featureService.revive(change, name, request.params.projectId);
      });
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/delete',
    {
      schema: {
        summary: 'Delete several archived flags for good',
        params: ProjectParams,
        body: FeatureNames,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_FEATURE, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        featureService.deleteArchivedAll(change, request.body.features, request.params.projectId),
      );
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/archive/features',
    { schema: { summary: 'List archived flags (deprecated: use the feature search)', response: { 200: FeatureList } } },
    async (request) => {
      const principal = allowRead(request);
      return featureService.listArchived(db, principal.key);
    },
  );

  app.get(
    '/api/admin/archive/features/:projectId',
    {
      schema: {
        summary: "List a project's archived flags (deprecated)",
        params: ProjectParams,
        response: { 200: FeatureList },
      },
    },
    async (request) => {
      const principal = allowRead(request, { project: request.params.projectId });
      return featureService.listArchived(db, principal.key, request.params.projectId);
    },
  );

  const projectOf = async (name: string) => (await findFeature(db, name))?.project;

  app.post(
    '/api/admin/archive/revive/:featureName',
    {
      schema: {
        summary: 'Bring an archived flag back',
        params: z.object({ featureName: PathName }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE, {
        project: await projectOf(request.params.featureName),
      });
      await changes.run(principal, (change) => featureService.revive(change, request.params.featureName));
      return reply.code(200).send();
    },
  );

  app.delete(
    '/api/admin/archive/:featureName',
    {
      schema: {
        summary: 'Delete an archived flag for good',
        params: z.object({ featureName: PathName }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_FEATURE, {
        project: await projectOf(request.params.featureName),
      });
      await changes.run(principal, (change) => featureService.deleteArchived(change, request.params.featureName));
      return reply.code(200).send();
    },
  );
}
