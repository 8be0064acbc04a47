import { z } from 'zod';
import { CreateTag, CreateTagType, PathName, ProjectTagsBulk, TagsList, TagWithVersion, UpdateFeatureTags, UpdateTagType, ValidateTagType } from '@bunting/contracts';
import { NameExistsError, NotFoundError, Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allowRead } from '../access/guard.ts';
import { requireFeature, requireFeatureByName } from '../features/feature-lookup.ts';
import { featureStore } from '../features/feature-store.ts';
import { tagService } from './tag-service.ts';
import { tagStore, tagTypeStore } from './tag-store.ts';

const FeatureParams = z.object({ featureName: PathName });
const TagParams = z.object({ type: PathName, value: PathName });

export function tagRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get('/api/admin/tag-types', async (request) => {
    allowRead(request);
    return { version: 1, tagTypes: await tagTypeStore.list(db) };
  });

  app.post('/api/admin/tag-types', { schema: { body: CreateTagType } }, async (request, reply) => {
    const actor = actorFor(request, Permission.CREATE_TAG_TYPE);
    return reply.code(201).send(await changes.run(actor, (change) => tagService.createTagType(change, request.body)));
  });

  app.post('/api/admin/tag-types/validate', { schema: { body: ValidateTagType } }, async (request) => {
    allowRead(request);
    if (await tagTypeStore.get(db, request.body.name)) throw new NameExistsError(`A tag type with the name ${request.body.name} already exists`);
    return { valid: true, tagType: { name: request.body.name } };
  });

  app.get('/api/admin/tag-types/:name', { schema: { params: z.object({ name: PathName }) } }, async (request) => {
    allowRead(request);
    const tagType = await tagTypeStore.get(db, request.params.name);
    if (!tagType) throw new NotFoundError(`Could not find tag type ${request.params.name}`);
    return { version: 1, tagType };
  });

  app.put('/api/admin/tag-types/:name', { schema: { params: z.object({ name: PathName }), body: UpdateTagType } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_TAG_TYPE);
    await changes.run(actor, (change) => tagService.updateTagType(change, request.params.name, request.body));
    return reply.code(200).send();
  });

  app.delete('/api/admin/tag-types/:name', { schema: { params: z.object({ name: PathName }) } }, async (request, reply) => {
    const actor = actorFor(request, Permission.DELETE_TAG_TYPE);
    await changes.run(actor, (change) => tagService.deleteTagType(change, request.params.name));
    return reply.code(200).send();
  });

  app.get('/api/admin/tags', { schema: { response: { 200: TagsList } } }, async (request) => {
    allowRead(request);
    return { version: 1, tags: await tagStore.list(db) };
  });

  app.get('/api/admin/tags/:type', { schema: { params: z.object({ type: PathName }), response: { 200: TagsList } } }, async (request) => {
    allowRead(request);
    return { version: 1, tags: await tagStore.list(db, request.params.type) };
  });

  app.get('/api/admin/tags/:type/:value', { schema: { params: TagParams, response: { 200: TagWithVersion } } }, async (request) => {
    allowRead(request);
    if (!(await tagStore.exists(db, request.params))) throw new NotFoundError(`Could not find tag ${request.params.type}:${request.params.value}`);
    return { version: 1, tag: { value: request.params.value, type: request.params.type } };
  });

  app.post('/api/admin/tags', { schema: { body: CreateTag, response: { 201: TagWithVersion } } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: '*' });
    const tag = await changes.run(actor, (change) => tagService.createTag(change, request.body));
    return reply.code(201).send({ version: 1, tag });
  });

  app.delete('/api/admin/tags/:type/:value', { schema: { params: TagParams } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: '*' });
    await changes.run(actor, (change) => tagService.deleteTag(change, request.params));
    return reply.code(200).send();
  });

  // Seed endpoint 16: an unknown feature has no tags, so its list is empty rather than 404.
  app.get('/api/admin/features/:featureName/tags', { schema: { params: FeatureParams, response: { 200: TagsList } } }, async (request) => {
    allowRead(request);
    return { version: 1, tags: await tagStore.forFeature(db, request.params.featureName) };
  });

  app.post('/api/admin/features/:featureName/tags', { schema: { params: FeatureParams, body: CreateTag } }, async (request, reply) => {
    const feature = await featureStore.get(db, request.params.featureName);
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: feature?.project });
    const tag = await changes.run(actor, async (change) => {
      const locked = await requireFeatureByName(change.tx, request.params.featureName, { forWrite: true });
      return tagService.attach(change, locked, request.body);
    });
    return reply.code(201).send(tag);
  });

  app.put('/api/admin/features/:featureName/tags', { schema: { params: FeatureParams, body: UpdateFeatureTags } }, async (request) => {
    const feature = await featureStore.get(db, request.params.featureName);
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: feature?.project });
    return changes.run(actor, async (change) => {
      const locked = await requireFeatureByName(change.tx, request.params.featureName, { forWrite: true });
      for (const tag of request.body.addedTags) await tagService.attach(change, locked, tag);
      for (const tag of request.body.removedTags) await tagService.detach(change, locked, tag);
      return { version: 1, tags: await tagStore.forFeature(change.tx, locked.name) };
    });
  });

  app.delete('/api/admin/features/:featureName/tags/:type/:value', { schema: { params: FeatureParams.extend(TagParams.shape) } }, async (request, reply) => {
    const feature = await featureStore.get(db, request.params.featureName);
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: feature?.project });
    await changes.run(actor, async (change) => {
      const locked = await requireFeatureByName(change.tx, request.params.featureName, { forWrite: true });
      await tagService.detach(change, locked, request.params);
    });
    return reply.code(200).send();
  });

  app.put('/api/admin/projects/:projectId/tags', { schema: { params: z.object({ projectId: PathName }), body: ProjectTagsBulk } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE, { project: request.params.projectId });
    await changes.run(actor, async (change) => {
      for (const name of request.body.features) {
        const feature = await requireFeature(change.tx, request.params.projectId, name, { forWrite: true, allowArchived: true });
        for (const tag of request.body.tags.addedTags) await tagService.attach(change, feature, tag);
        for (const tag of request.body.tags.removedTags) await tagService.detach(change, feature, tag);
      }
    });
    return reply.code(200).send();
  });
}
