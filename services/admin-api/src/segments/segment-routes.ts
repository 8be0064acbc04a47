import { z } from 'zod';
import { CreateFeatureStrategy, NumericId, Segment, UpdateStrategySegments, UpsertSegment } from '@bunting/contracts';
import { NotFoundError, Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allowRead } from '../access/guard.ts';
import { requireSegment, segmentService } from './segment-service.ts';
import { strategyService } from '../strategies/strategy-service.ts';
import { strategyStore, strategyView } from '../strategies/strategy-store.ts';

const IdParams = z.object({ id: NumericId });

export function segmentRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get('/api/admin/segments', async (request) => {
    allowRead(request);
    return segmentService.list(db);
  });

  app.post('/api/admin/segments', { schema: { body: UpsertSegment, response: { 201: Segment } } }, async (request, reply) => {
    const actor = actorFor(request, Permission.CREATE_SEGMENT, { project: request.body.project });
    return reply.code(201).send(await changes.run(actor, (change) => segmentService.create(change, request.body)));
  });

  app.post('/api/admin/segments/validate', { schema: { body: z.object({ name: z.string().min(1).max(255) }) } }, async (request, reply) => {
    allowRead(request);
    await segmentService.validateName(db, request.body.name);
    return reply.code(204).send();
  });

  app.get('/api/admin/segments/:id', { schema: { params: IdParams, response: { 200: Segment } } }, async (request) => {
    allowRead(request);
    return requireSegment(db, request.params.id);
  });

  app.get('/api/admin/segments/strategies/:strategyId', { schema: { params: z.object({ strategyId: z.string().min(1).max(255) }) } }, async (request) => {
    allowRead(request);
    return segmentService.ofStrategy(db, request.params.strategyId);
  });

  // Replaces the segments of one strategy, as a strategy update (feature-strategy-update).
  app.post('/api/admin/segments/strategies', { schema: { body: UpdateStrategySegments } }, async (request, reply) => {
    const { projectId, strategyId, environmentId, segmentIds } = request.body;
    const actor = actorFor(request, Permission.UPDATE_FEATURE_STRATEGY, { project: projectId, environment: environmentId });
    await changes.run(actor, async (change) => {
      const row = await strategyStore.get(change.tx, strategyId);
      if (!row || row.environment !== environmentId) throw new NotFoundError(`Could not find strategy ${strategyId} in environment ${environmentId}`);
      const { id: _id, featureName, ...strategy } = strategyView(row);
      // The stored strategy was valid when written; it is checked again on the way back in.
      const input = CreateFeatureStrategy.parse({ ...strategy, segments: segmentIds });
      await strategyService.update(change, { project: projectId, feature: featureName, environment: environmentId }, strategyId, input);
    });
    return reply.code(201).send();
  });

  app.get('/api/admin/segments/:id/strategies', { schema: { params: IdParams } }, async (request) => {
    allowRead(request);
    return segmentService.strategiesUsing(db, request.params.id);
  });

  app.put('/api/admin/segments/:id', { schema: { params: IdParams, body: UpsertSegment } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_SEGMENT, { project: request.body.project });
    await changes.run(actor, (change) => segmentService.update(change, request.params.id, request.body));
    return reply.code(204).send();
  });

  app.delete('/api/admin/segments/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const actor = actorFor(request, Permission.DELETE_SEGMENT);
    await changes.run(actor, (change) => segmentService.delete(change, request.params.id));
    return reply.code(204).send();
  });
}
