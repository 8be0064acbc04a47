import { z } from 'zod';
import {
  StrategyDefinitionList,
  StrategyDefinitionView,
  NoContent,
  CreateStrategyDefinition,
  PathName,
  UpdateStrategyDefinition,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { strategyDefinitionService } from './strategy-definition-service.ts';

const NameParams = z.object({ name: PathName });

export function strategyDefinitionRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get(
    '/api/admin/strategies',
    {
      schema: {
        summary: 'List the strategy definitions, built-in and custom',
        response: { 200: StrategyDefinitionList },
      },
    },
    async (request) => {
      allowRead(request);
      return strategyDefinitionService.list(db);
    },
  );

  app.post(
    '/api/admin/strategies',
    {
      schema: {
        summary: 'Define a custom strategy',
        body: CreateStrategyDefinition,
        response: { 201: StrategyDefinitionView },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.CREATE_STRATEGY);
      const created = await changes.run(principal, (change) => strategyDefinitionService.create(change, request.body));
      return reply
        .code(201)
        .header('location', `/api/admin/strategies/${encodeURIComponent(created.name)}`)
        .send(created);
    },
  );

  app.get(
    '/api/admin/strategies/:name',
    {
      schema: { summary: 'Get one strategy definition', params: NameParams, response: { 200: StrategyDefinitionView } },
    },
    async (request) => {
      allowRead(request);
      return strategyDefinitionService.get(db, request.params.name);
    },
  );

  app.put(
    '/api/admin/strategies/:name',
    {
      schema: {
        summary: "Change a custom strategy's description and parameters",
        params: NameParams,
        body: UpdateStrategyDefinition,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_STRATEGY);
      await changes.run(principal, (change) =>
        strategyDefinitionService.update(change, request.params.name, request.body),
      );
      return reply.code(200).send();
    },
  );

  for (const [action, deprecated, summary] of [
    ['deprecate', true, 'Deprecate a strategy (flags keep it; it is not offered)'],
    ['reactivate', false, 'Offer a deprecated strategy again'],
  ] as const) {
    app.post(
      `/api/admin/strategies/:name/${action}`,
      { schema: { summary, params: NameParams, response: { 200: NoContent } } },
      async (request, reply) => {
        const principal = allow(request, Permission.UPDATE_STRATEGY);
        await changes.run(principal, (change) =>
          strategyDefinitionService.setDeprecated(change, request.params.name, deprecated),
        );
        return reply.code(200).send();
      },
    );
  }

  app.delete(
    '/api/admin/strategies/:name',
    { schema: { summary: 'Delete a custom strategy no flag uses', params: NameParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_STRATEGY);
      await changes.run(principal, (change) => strategyDefinitionService.delete(change, request.params.name));
      return reply.code(200).send();
    },
  );
}
