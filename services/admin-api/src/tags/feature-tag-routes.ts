import { z } from 'zod';
import {
  FeatureTagView,
  FeatureTagList,
  NoContent,
  CreateTag,
  PathName,
  ProjectTagsBulk,
  TagsList,
  UpdateFeatureTags,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { findFeature, requireFeature, requireFeatureByName } from '../feature-state/feature-lookup.ts';
import { tagService } from './tag-service.ts';
import { tagStore } from './tag-store.ts';

const FeatureParams = z.object({ featureName: PathName });
const TagParams = z.object({ type: PathName, value: PathName });

/** The tags a flag carries: reading, adding and removing them, one flag or many in a project. */
export function featureTagRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  // An unknown feature has no tags, so its list is empty rather than 404.
  app.get(
    '/api/admin/features/:featureName/tags',
    { schema: { summary: "List a flag's tags", params: FeatureParams, response: { 200: TagsList } } },
    async (request) => {
      allowRead(request);
      return { version: 1, tags: await tagStore.forFeature(db, request.params.featureName) };
    },
  );

  app.post(
    '/api/admin/features/:featureName/tags',
    { schema: { summary: 'Tag a flag', params: FeatureParams, body: CreateTag, response: { 201: FeatureTagView } } },
    async (request, reply) => {
      const feature = await findFeature(db, request.params.featureName);
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: feature?.project });
      const tag = await changes.run(principal, async (change) => {
        const locked = await requireFeatureByName(change.tx, request.params.featureName, { forWrite: true });
        return tagService.attach(change, locked, request.body);
      });
      const { featureName } = request.params;
      return reply
        .code(201)
        .header(
          'location',
          `/api/admin/features/${encodeURIComponent(featureName)}/tags/${encodeURIComponent(tag.type)}/${encodeURIComponent(tag.value)}`,
        )
        .send(tag);
    },
  );

  app.put(
    '/api/admin/features/:featureName/tags',
    {
      schema: {
        summary: "Add and remove several of a flag's tags",
        params: FeatureParams,
        body: UpdateFeatureTags,
        response: { 200: FeatureTagList },
      },
    },
    async (request) => {
      const feature = await findFeature(db, request.params.featureName);
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: feature?.project });
      return changes.run(principal, async (change) => {
        const locked = await requireFeatureByName(change.tx, request.params.featureName, { forWrite: true });
        for (const tag of request.body.addedTags) await tagService.attach(change, locked, tag);
        for (const tag of request.body.removedTags) await tagService.detach(change, locked, tag);
        return { version: 1, tags: await tagStore.forFeature(change.tx, locked.name) };
      });
    },
  );

  app.delete(
    '/api/admin/features/:featureName/tags/:type/:value',
    {
      schema: {
        summary: 'Remove a tag from a flag',
        params: FeatureParams.extend(TagParams.shape),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const feature = await findFeature(db, request.params.featureName);
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: feature?.project });
      await changes.run(principal, async (change) => {
        const locked = await requireFeatureByName(change.tx, request.params.featureName, { forWrite: true });
        await tagService.detach(change, locked, request.params);
      });
      return reply.code(200).send();
    },
  );

  app.put(
    '/api/admin/projects/:projectId/tags',
    {
      schema: {
        summary: 'Add and remove tags on several flags of a project',
        params: z.object({ projectId: PathName }),
        body: ProjectTagsBulk,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: request.params.projectId });
      await changes.run(principal, async (change) => {
        for (const name of request.body.features) {
          const feature = await requireFeature(change.tx, request.params.projectId, name, {
            forWrite: true,
            allowArchived: true,
          });
          for (const tag of request.body.tags.addedTags) await tagService.attach(change, feature, tag);
          for (const tag of request.body.tags.removedTags) await tagService.detach(change, feature, tag);
        }
      });
      return reply.code(200).send();
    },
  );
}
