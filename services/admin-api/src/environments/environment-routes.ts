import { z } from 'zod';
import {
  NoContent,
  CreateEnvironment,
  Environment,
  EnvironmentSortOrder,
  Environments,
  PathName,
  UpdateEnvironment,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { environmentService, environmentView } from './environment-service.ts';

const NameParams = z.object({ name: PathName });

export function environmentRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get(
    '/api/admin/environments',
    { schema: { summary: 'List the environments', response: { 200: Environments } } },
    async (request) => {
      allowRead(request);
      return environmentService.list(db);
    },
  );

  app.post(
    '/api/admin/environments',
    { schema: { summary: 'Create an environment', body: CreateEnvironment, response: { 201: Environment } } },
    async (request, reply) => {
      const principal = allow(request, Permission.CREATE_ENVIRONMENT);
      const created = await changes.run(principal, (change) => environmentService.create(change, request.body));
      return reply
        .code(201)
        .header('location', `/api/admin/environments/${encodeURIComponent(created.name)}`)
        .send(created);
    },
  );

  app.post(
    '/api/admin/environments/validate',
    {
      schema: {
        summary: 'Check that an environment name is free and well formed',
        body: z.object({ name: CreateEnvironment.shape.name }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      allowRead(request);
      await environmentService.validateName(db, request.body.name);
      return reply.code(200).send();
    },
  );

  app.put(
    '/api/admin/environments/sort-order',
    {
      schema: {
        summary: 'Set the order environments are shown in',
        body: EnvironmentSortOrder,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_ENVIRONMENT);
      await changes.run(principal, async (change) => {
        for (const [name, sortOrder] of Object.entries(request.body)) {
          await environmentService.update(change, name, { sortOrder });
        }
      });
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/environments/:name',
    { schema: { summary: 'Get one environment', params: NameParams, response: { 200: Environment } } },
    async (request) => {
      allowRead(request);
      return environmentView(db, request.params.name);
    },
  );

  app.put(
    '/api/admin/environments/update/:name',
    {
      schema: {
        summary: "Change an environment's type or order",
        params: NameParams,
        body: UpdateEnvironment,
        response: { 200: Environment },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.UPDATE_ENVIRONMENT);
      return changes.run(principal, (change) => environmentService.update(change, request.params.name, request.body));
    },
  );

  for (const [action, enabled, summary] of [
    ['on', true, 'Turn an environment on'],
    ['off', false, 'Turn an environment off (SDKs stop receiving it)'],
  ] as const) {
    app.post(
      `/api/admin/environments/:name/${action}`,
      { schema: { summary, params: NameParams, response: { 204: NoContent } } },
      async (request, reply) => {
        const principal = allow(request, Permission.UPDATE_ENVIRONMENT);
        await changes.run(principal, (change) => environmentService.update(change, request.params.name, { enabled }));
        return reply.code(204).send();
      },
    );
  }

  app.delete(
    '/api/admin/environments/:name',
    { schema: { summary: 'Delete an environment', params: NameParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_ENVIRONMENT);
      await changes.run(principal, (change) => environmentService.delete(change, request.params.name));
      return reply.code(200).send();
    },
  );
}
