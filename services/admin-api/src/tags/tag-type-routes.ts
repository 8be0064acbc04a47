import { z } from 'zod';
import {
  TagTypeList,
  TagTypeView,
  TagTypeValidation,
  TagTypeAnswer,
  NoContent,
  CreateTagType,
  PathName,
  UpdateTagType,
  ValidateTagType,
} from '@bunting/contracts';
import { NotFoundError, Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { tagService } from './tag-service.ts';
import { tagTypeStore } from './tag-store.ts';

/** Tag types: the kinds of tags flags can carry. */
export function tagTypeRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/tag-types',
    { schema: { summary: 'List the tag types', response: { 200: TagTypeList } } },
    async (request) => {
      allowRead(request);
      return { version: 1, tagTypes: await tagTypeStore.list(db) };
    },
  );

  app.post(
    '/api/admin/tag-types',
    { schema: { summary: 'Create a tag type', body: CreateTagType, response: { 201: TagTypeView } } },
    async (request, reply) => {
      const principal = allow(request, Permission.CREATE_TAG_TYPE);
      const created = await changes.run(principal, (change) => tagService.createTagType(change, request.body));
      return reply
        .code(201)
        .header('location', `/api/admin/tag-types/${encodeURIComponent(created.name)}`)
        .send(created);
    },
  );

  app.post(
    '/api/admin/tag-types/validate',
    {
      schema: {
        summary: 'Check that a tag type name is free',
        body: ValidateTagType,
        response: { 200: TagTypeValidation },
      },
    },
    async (request) => {
      allowRead(request);
      await tagService.validateTagTypeName(db, request.body.name);
      return { valid: true, tagType: { name: request.body.name } };
    },
  );

  app.get(
    '/api/admin/tag-types/:name',
    { schema: { summary: 'Get one tag type', params: z.object({ name: PathName }), response: { 200: TagTypeAnswer } } },
    async (request) => {
      allowRead(request);
      const tagType = await tagTypeStore.get(db, request.params.name);
      if (!tagType) throw new NotFoundError(`Could not find tag type ${request.params.name}`);
      return { version: 1, tagType };
    },
  );

  app.put(
    '/api/admin/tag-types/:name',
    {
      schema: {
        summary: "Change a tag type's description, icon or colour",
        params: z.object({ name: PathName }),
        body: UpdateTagType,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_TAG_TYPE);
      await changes.run(principal, (change) => tagService.updateTagType(change, request.params.name, request.body));
      return reply.code(200).send();
    },
  );

  app.delete(
    '/api/admin/tag-types/:name',
    { schema: { summary: 'Delete a tag type', params: z.object({ name: PathName }), response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_TAG_TYPE);
      await changes.run(principal, (change) => tagService.deleteTagType(change, request.params.name));
      return reply.code(200).send();
    },
  );
}
