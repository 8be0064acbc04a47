import { z } from 'zod';
import { CreatedFeature, CreateFeature, Feature, FeatureLifecycleCompleted, FeatureNames, FeatureSearchQuery, FeatureStale, PatchOperations, PathName, UpdateFeature, ValidateFeatureName } from '@bunting/contracts';
import { Permission, sql, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allowRead } from '../access/guard.ts';
import { featureService } from './feature-service.ts';
import { featureStore } from './feature-store.ts';
import { featureEnvironmentService } from './feature-environment-service.ts';
import { featureTypeService } from './feature-type-service.ts';
import { lifecycleService } from './lifecycle.ts';
import { searchFeatures } from './feature-search.ts';
import { requireFeature } from './feature-lookup.ts';
import { featureFavoriteService } from '../favorites/feature-favorite-service.ts';

const ProjectParams = z.object({ projectId: PathName });
const FeatureParams = z.object({ projectId: PathName, featureName: PathName });
const EnvironmentParams = FeatureParams.extend({ environment: PathName });

export function featureRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get('/api/admin/projects/:projectId/features/:featureName/lifecycle', { schema: { params: FeatureParams } }, async (request) => {
    const { projectId, featureName } = request.params;
    allowRead(request, { project: projectId });
    await requireFeature(db, projectId, featureName, { allowArchived: true });
    return lifecycleService.history(db, featureName);
  });

  app.post('/api/admin/projects/:projectId/features/:featureName/lifecycle/complete', { schema: { params: FeatureParams, body: FeatureLifecycleCompleted } }, async (request, reply) => {
    const { projectId, featureName } = request.params;
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: projectId });
    await changes.run(actor, async (change) => lifecycleService.complete(change, await requireFeature(change.tx, projectId, featureName, { allowArchived: true, forWrite: true }), request.body));
    return reply.code(200).send();
  });

  app.post('/api/admin/projects/:projectId/features/:featureName/lifecycle/uncomplete', { schema: { params: FeatureParams } }, async (request, reply) => {
    const { projectId, featureName } = request.params;
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: projectId });
    await changes.run(actor, async (change) => lifecycleService.uncomplete(change, await requireFeature(change.tx, projectId, featureName, { forWrite: true })));
    return reply.code(200).send();
  });

  app.get('/api/admin/search/features', { schema: { querystring: FeatureSearchQuery } }, async (request) => {
    const principal = allowRead(request);
    return searchFeatures(db, principal.key, request.query);
  });

  // Who created the project's flags, for filtering by creator.
  app.get('/api/admin/projects/:projectId/flag-creators', { schema: { params: ProjectParams } }, async (request) => {
    allowRead(request, { project: request.params.projectId });
    return db.any(sql.type(z.object({ id: z.number(), name: z.string() }))`
      select distinct on (f.created_by_user_id) f.created_by_user_id as id,
        coalesce(u.name, u.username, u.email, f.created_by_name, 'unknown') as name
      from admin.features f left join admin.users u on u.id = f.created_by_user_id
      where f.project_id = ${request.params.projectId} and f.created_by_user_id is not null
      order by f.created_by_user_id`);
  });

  app.get('/api/admin/lifecycle/count', async (request) => {
    allowRead(request);
    return lifecycleService.count(db);
  });

  app.post('/api/admin/features/validate', { schema: { body: ValidateFeatureName } }, async (request, reply) => {
    allowRead(request);
    await featureService.validateName(db, request.body.name, request.body.projectId);
    return reply.code(200).send();
  });

  app.get('/api/admin/features', async (request) => {
    const principal = allowRead(request);
    return featureService.listAll(db, principal.key);
  });

  app.get('/api/admin/features/:featureName', { schema: { params: z.object({ featureName: PathName }), response: { 200: Feature } } }, async (request) => {
    const principal = allowRead(request);
    return featureService.getByName(db, request.params.featureName, principal.key);
  });

  app.get('/api/admin/projects/:projectId/features', { schema: { params: ProjectParams } }, async (request) => {
    const principal = allowRead(request, { project: request.params.projectId });
    return featureService.listInProject(db, request.params.projectId, principal.key);
  });

  app.post('/api/admin/projects/:projectId/features', { schema: { params: ProjectParams, body: CreateFeature, response: { 201: CreatedFeature } } }, async (request, reply) => {
    const actor = actorFor(request, Permission.CREATE_FEATURE, { project: request.params.projectId });
    const created = await changes.run(actor, (change) => featureService.create(change, request.params.projectId, request.body));
    return reply.code(201).send(created);
  });

  app.get('/api/admin/projects/:projectId/features/:featureName', { schema: { params: FeatureParams, response: { 200: Feature } } }, async (request) => {
    const principal = allowRead(request, { project: request.params.projectId });
    return featureService.get(db, request.params.projectId, request.params.featureName, principal.key);
  });

  app.put('/api/admin/projects/:projectId/features/:featureName', { schema: { params: FeatureParams, body: UpdateFeature, response: { 200: Feature } } }, async (request) => {
    const { projectId, featureName } = request.params;
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: projectId });
    return changes.run(actor, (change) => featureService.update(change, projectId, featureName, request.body));
  });

  app.patch('/api/admin/projects/:projectId/features/:featureName', { schema: { params: FeatureParams, body: PatchOperations, response: { 200: Feature } } }, async (request) => {
    const { projectId, featureName } = request.params;
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: projectId });
    return changes.run(actor, (change) => featureService.patch(change, projectId, featureName, request.body));
  });

  app.delete('/api/admin/projects/:projectId/features/:featureName', { schema: { params: FeatureParams } }, async (request, reply) => {
    const { projectId, featureName } = request.params;
    const actor = actorFor(request, Permission.DELETE_FEATURE, { project: projectId });
    await changes.run(actor, (change) => featureService.archive(change, projectId, featureName));
    return reply.code(202).send();
  });

  app.post('/api/admin/projects/:projectId/features/:featureName/clone', {
    schema: { params: FeatureParams, body: z.object({ name: CreateFeature.shape.name, replaceGroupId: z.boolean().optional() }), response: { 201: CreatedFeature } },
  }, async (request, reply) => {
    const { projectId, featureName } = request.params;
    const actor = actorFor(request, Permission.CREATE_FEATURE, { project: projectId });
    const created = await changes.run(actor, (change) => featureService.clone(change, projectId, featureName, request.body));
    return reply.code(201).send(created);
  });

  app.post('/api/admin/projects/:projectId/stale', { schema: { params: ProjectParams, body: FeatureStale } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: request.params.projectId });
    await changes.run(actor, (change) => featureService.setStale(change, request.params.projectId, request.body.features, request.body.stale));
    return reply.code(202).send();
  });

  app.post('/api/admin/projects/:projectId/archive', { schema: { params: ProjectParams, body: FeatureNames } }, async (request, reply) => {
    const actor = actorFor(request, Permission.DELETE_FEATURE, { project: request.params.projectId });
    await changes.run(actor, async (change) => {
      for (const name of request.body.features) await featureService.archive(change, request.params.projectId, name);
    });
    return reply.code(202).send();
  });

  app.post('/api/admin/projects/:projectId/revive', { schema: { params: ProjectParams, body: FeatureNames } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: request.params.projectId });
    await changes.run(actor, async (change) => {
      for (const name of request.body.features) await featureService.revive(change, name, request.params.projectId);
    });
    return reply.code(200).send();
  });

  app.post('/api/admin/projects/:projectId/delete', { schema: { params: ProjectParams, body: FeatureNames } }, async (request, reply) => {
    const actor = actorFor(request, Permission.DELETE_FEATURE, { project: request.params.projectId });
    await changes.run(actor, async (change) => {
      for (const name of request.body.features) await featureService.deleteArchived(change, name, request.params.projectId);
    });
    return reply.code(200).send();
  });

  app.get('/api/admin/archive/features', async (request) => {
    const principal = allowRead(request);
    return featureService.listArchived(db, principal.key);
  });

  app.get('/api/admin/archive/features/:projectId', { schema: { params: ProjectParams } }, async (request) => {
    const principal = allowRead(request, { project: request.params.projectId });
    return featureService.listArchived(db, principal.key, request.params.projectId);
  });

  const projectOf = async (name: string) => (await featureStore.get(db, name))?.project;

  app.post('/api/admin/archive/revive/:featureName', { schema: { params: z.object({ featureName: PathName }) } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: await projectOf(request.params.featureName) });
    await changes.run(actor, (change) => featureService.revive(change, request.params.featureName));
    return reply.code(200).send();
  });

  app.delete('/api/admin/archive/:featureName', { schema: { params: z.object({ featureName: PathName }) } }, async (request, reply) => {
    const actor = actorFor(request, Permission.DELETE_FEATURE, { project: await projectOf(request.params.featureName) });
    await changes.run(actor, (change) => featureService.deleteArchived(change, request.params.featureName));
    return reply.code(200).send();
  });

  app.get('/api/admin/projects/:projectId/features/:featureName/environments/:environment', { schema: { params: EnvironmentParams } }, async (request) => {
    const { projectId, featureName, environment } = request.params;
    allowRead(request, { project: projectId, environment });
    return featureEnvironmentService.get(db, projectId, featureName, environment);
  });

  for (const [action, enabled] of [['on', true], ['off', false]] as const) {
    app.post(`/api/admin/projects/:projectId/features/:featureName/environments/:environment/${action}`, { schema: { params: EnvironmentParams } }, async (request, reply) => {
      const { projectId, featureName, environment } = request.params;
      const actor = actorFor(request, Permission.UPDATE_FEATURE_ENVIRONMENT, { project: projectId, environment });
      await changes.run(actor, (change) => featureEnvironmentService.setEnabled(change, projectId, featureName, environment, enabled));
      return reply.code(200).send();
    });

    app.post(`/api/admin/projects/:projectId/bulk_features/environments/:environment/${action}`, {
      schema: { params: ProjectParams.extend({ environment: PathName }), body: FeatureNames },
    }, async (request, reply) => {
      const { projectId, environment } = request.params;
      const actor = actorFor(request, Permission.UPDATE_FEATURE_ENVIRONMENT, { project: projectId, environment });
      await changes.run(actor, async (change) => {
        for (const name of request.body.features) await featureEnvironmentService.setEnabled(change, projectId, name, environment, enabled);
      });
      return reply.code(200).send();
    });
  }

  for (const [method, favorite] of [['post', true], ['delete', false]] as const) {
    app[method]('/api/admin/projects/:projectId/features/:featureName/favorites', { schema: { params: FeatureParams } }, async (request, reply) => {
      const principal = allowRead(request, { project: request.params.projectId });
      const actor = actorFor(request, Permission.READ);
      await changes.run(actor, (change) => featureFavoriteService.set(change, principal.key, request.params.projectId, request.params.featureName, favorite));
      return reply.code(200).send();
    });
  }

  app.get('/api/admin/feature-types', async (request) => {
    allowRead(request);
    return featureTypeService.list(db);
  });

  app.put('/api/admin/feature-types/:id/lifetime', {
    schema: { params: z.object({ id: PathName }), body: z.object({ lifetimeDays: z.number().int().min(0).max(2_147_483_647).nullable() }) },
  }, async (request) => {
    const actor = actorFor(request, Permission.ADMIN);
    return changes.run(actor, (change) => featureTypeService.setLifetime(change, request.params.id, request.body.lifetimeDays));
  });

}
