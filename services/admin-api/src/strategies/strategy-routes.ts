import { z } from 'zod';
import {
  NoContent,
  CreateFeatureStrategy,
  FeatureStrategy,
  PatchOperations,
  PathName,
  StrategySortOrder,
  UpdateStrategySegments,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { strategyService, type StrategyPath } from './strategy-service.ts';

const Params = z.object({ projectId: PathName, featureName: PathName, environment: PathName });
const StrategyParams = Params.extend({ strategyId: PathName });

function pathOf(params: z.infer<typeof Params>): StrategyPath {
  return { project: params.projectId, feature: params.featureName, environment: params.environment };
}

export function strategyRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  const base = '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies';

  app.get(
    base,
    {
      schema: {
        summary: "List a flag's strategies in an environment",
        params: Params,
        response: { 200: z.array(FeatureStrategy) },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId, environment: request.params.environment });
      return strategyService.list(db, pathOf(request.params));
    },
  );

  app.post(
    base,
    {
      schema: {
        summary: 'Add a strategy to a flag in an environment',
        params: Params,
        body: CreateFeatureStrategy,
        response: { 200: FeatureStrategy },
      },
    },
    async (request) => {
      const path = pathOf(request.params);
      const principal = allow(request, Permission.CREATE_FEATURE_STRATEGY, path);
      return changes.run(principal, (change) => strategyService.add(change, path, request.body));
    },
  );

  app.post(
    `${base}/set-sort-order`,
    {
      schema: {
        summary: "Set the order a flag's strategies are evaluated in",
        params: Params,
        body: StrategySortOrder,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const path = pathOf(request.params);
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, path);
      await changes.run(principal, (change) => strategyService.setSortOrder(change, path, request.body));
      return reply.code(200).send();
    },
  );

  app.get(
    `${base}/:strategyId`,
    { schema: { summary: 'Get one strategy of a flag', params: StrategyParams, response: { 200: FeatureStrategy } } },
    async (request) => {
      allowRead(request, { project: request.params.projectId, environment: request.params.environment });
      return strategyService.get(db, pathOf(request.params), request.params.strategyId);
    },
  );

  app.put(
    `${base}/:strategyId`,
    {
      schema: {
        summary: 'Replace a strategy of a flag',
        params: StrategyParams,
        body: CreateFeatureStrategy,
        response: { 200: FeatureStrategy },
      },
    },
    async (request) => {
      const path = pathOf(request.params);
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, path);
      return changes.run(principal, (change) =>
        strategyService.update(change, path, request.params.strategyId, request.body),
      );
    },
  );

  app.patch(
    `${base}/:strategyId`,
    {
      schema: {
        summary: 'Change a strategy of a flag with a JSON Patch',
        params: StrategyParams,
        body: PatchOperations,
        response: { 200: FeatureStrategy },
      },
    },
    async (request) => {
      const path = pathOf(request.params);
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, path);
      return changes.run(principal, (change) =>
        strategyService.patch(change, path, request.params.strategyId, request.body),
      );
    },
  );

  app.delete(
    `${base}/:strategyId`,
    { schema: { summary: 'Remove a strategy from a flag', params: StrategyParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const path = pathOf(request.params);
      const principal = allow(request, Permission.DELETE_FEATURE_STRATEGY, path);
      await changes.run(principal, (change) => strategyService.remove(change, path, request.params.strategyId));
      return reply.code(200).send();
    },
  );

  // Replaces the segments of one strategy, as a strategy update (feature-strategy-update).
  app.post(
    '/api/admin/segments/strategies',
    {
      schema: {
        summary: 'Set the segments a strategy uses',
        body: UpdateStrategySegments,
        response: { 201: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, strategyId, environmentId, segmentIds } = request.body;
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, {
        project: projectId,
        environment: environmentId,
      });
      await changes.run(principal, (change) =>
        strategyService.replaceSegments(change, projectId, environmentId, strategyId, segmentIds),
      );
      return reply
        .code(201)
        .header('location', `/api/admin/segments/strategies/${encodeURIComponent(strategyId)}`)
        .send();
    },
  );
}
