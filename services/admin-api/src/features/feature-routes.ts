import { z } from 'zod';
import {
  FeatureList,
  NoContent,
  CreatedFeature,
  CreateFeature,
  Feature,
  FeatureReadQuery,
  FeatureStale,
  PatchOperations,
  PathName,
  UpdateFeature,
  ValidateFeatureName,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { featureService } from './feature-service.ts';

const ProjectParams = z.object({ projectId: PathName });
const FeatureParams = z.object({ projectId: PathName, featureName: PathName });

/** Flags themselves: list, create, read, change, clone, mark stale. */
const flagLocation = (project: string, name: string) =>
  `/api/admin/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(name)}`;

export function featureRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.post(
    '/api/admin/features/validate',
    {
      schema: {
        summary: 'Check that a flag name is free and well formed',
        body: ValidateFeatureName,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      allowRead(request);
      await featureService.validateName(db, request.body.name, request.body.projectId);
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/features',
    { schema: { summary: 'List every flag (deprecated: use the feature search)', response: { 200: FeatureList } } },
    async (request) => {
      const principal = allowRead(request);
      return featureService.listAll(db, principal.key);
    },
  );

  app.get(
    '/api/admin/features/:featureName',
    {
      schema: {
        summary: 'Get one flag by name, in whichever project it is',
        params: z.object({ featureName: PathName }),
        response: { 200: Feature },
      },
    },
    async (request) => {
      const principal = allowRead(request);
      return featureService.getByName(db, request.params.featureName, principal.key);
    },
  );

  app.get(
    '/api/admin/projects/:projectId/features',
    { schema: { summary: "List a project's flags", params: ProjectParams, response: { 200: FeatureList } } },
    async (request) => {
      const principal = allowRead(request, { project: request.params.projectId });
      return featureService.listInProject(db, request.params.projectId, principal.key);
    },
  );

  app.post(
    '/api/admin/projects/:projectId/features',
    {
      schema: {
        summary: 'Create a flag in a project',
        params: ProjectParams,
        body: CreateFeature,
        response: { 201: CreatedFeature },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const principal = allow(request, Permission.CREATE_FEATURE, { project: projectId });
      // Made straight into the archive, as Unleash does for archived: true: archiving's own permission too.
      if (request.body.archived) allow(request, Permission.DELETE_FEATURE, { project: projectId });
      const created = await changes.run(principal, async (change) => {
        const made = await featureService.create(change, projectId, request.body);
        if (!request.body.archived) return made;
        await featureService.archive(change, projectId, made.name);
        return { ...made, archived: true };
      });
      return reply.code(201).header('location', flagLocation(request.params.projectId, created.name)).send(created);
    },
  );

  // The console's flag page asks for the flag every couple of seconds; an unchanged flag costs a 304.
  app.get(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      schema: {
        summary: 'Get a flag with its environments, strategies and variants',
        params: FeatureParams,
        querystring: FeatureReadQuery,
        response: { 200: Feature },
      },
      config: { etag: true },
    },
    async (request) => {
      const principal = allowRead(request, { project: request.params.projectId });
      return featureService.get(db, request.params.projectId, request.params.featureName, principal.key, {
        archived: request.query.archived === 'true',
      });
    },
  );

  app.put(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      schema: {
        summary: "Change a flag's type, description, impression data or staleness",
        params: FeatureParams,
        body: UpdateFeature,
        response: { 200: Feature },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      return changes.run(principal, (change) => featureService.update(change, projectId, featureName, request.body));
    },
  );

  app.patch(
    '/api/admin/projects/:projectId/features/:featureName',
    {
      schema: {
        summary: "Change a flag's fields with a JSON Patch",
        params: FeatureParams,
        body: PatchOperations,
        response: { 200: Feature },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      return changes.run(principal, (change) => featureService.patch(change, projectId, featureName, request.body));
    },
  );

  app.delete(
    '/api/admin/projects/:projectId/features/:featureName',
    { schema: { summary: 'Archive a flag', params: FeatureParams, response: { 202: NoContent } } },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.DELETE_FEATURE, { project: projectId });
      await changes.run(principal, (change) => featureService.archive(change, projectId, featureName));
      return reply.code(202).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/features/:featureName/clone',
    {
      schema: {
        summary: 'Create a flag as a copy of another',
        params: FeatureParams,
        body: z.object({ name: CreateFeature.shape.name, replaceGroupId: z.boolean().optional() }),
        response: { 201: CreatedFeature },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.CREATE_FEATURE, { project: projectId });
      const created = await changes.run(principal, (change) =>
        featureService.clone(change, projectId, featureName, request.body),
      );
      return reply.code(201).header('location', flagLocation(projectId, created.name)).send(created);
    },
  );

  app.post(
    '/api/admin/projects/:projectId/stale',
    {
      schema: {
        summary: 'Mark several flags stale or not stale',
        params: ProjectParams,
        body: FeatureStale,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        featureService.setStale(change, request.params.projectId, request.body.features, request.body.stale),
      );
      return reply.code(202).send();
    },
  );
}
