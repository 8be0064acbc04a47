import { z } from 'zod';
import { NoContent, CreateTag, PathName, TagsList, TagWithVersion } from '@bunting/contracts';
import { NotFoundError, Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { tagService } from './tag-service.ts';
import { tagStore } from './tag-store.ts';

const TagParams = z.object({ type: PathName, value: PathName });

/** Tags themselves, whether or not a flag carries them. */
export function tagRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/tags',
    { schema: { summary: 'List every tag', response: { 200: TagsList } } },
    async (request) => {
      allowRead(request);
      return { version: 1, tags: await tagStore.list(db) };
    },
  );

  app.get(
    '/api/admin/tags/:type',
    {
      schema: {
        summary: 'List the tags of one type',
        params: z.object({ type: PathName }),
        response: { 200: TagsList },
      },
    },
    async (request) => {
      allowRead(request);
      return { version: 1, tags: await tagStore.list(db, request.params.type) };
    },
  );

  app.get(
    '/api/admin/tags/:type/:value',
    { schema: { summary: 'Get one tag', params: TagParams, response: { 200: TagWithVersion } } },
    async (request) => {
      allowRead(request);
      const tag = await tagStore.get(db, request.params);
      if (!tag) throw new NotFoundError(`Could not find tag ${request.params.type}:${request.params.value}`);
      return { version: 1, tag };
    },
  );

  app.post(
    '/api/admin/tags',
    { schema: { summary: 'Create a tag', body: CreateTag, response: { 201: TagWithVersion } } },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: '*' });
      const tag = await changes.run(principal, (change) => tagService.createTag(change, request.body));
      return reply
        .code(201)
        .header('location', `/api/admin/tags/${encodeURIComponent(tag.type)}/${encodeURIComponent(tag.value)}`)
        .send({ version: 1, tag });
    },
  );

  app.delete(
    '/api/admin/tags/:type/:value',
    { schema: { summary: 'Delete a tag', params: TagParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: '*' });
      await changes.run(principal, (change) => tagService.deleteTag(change, request.params));
      return reply.code(200).send();
    },
  );
}
