import { z } from 'zod';
import { SegmentList, SegmentStrategies, NoContent, NumericId, Segment, UpsertSegment } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { requireSegment, segmentService } from './segment-service.ts';

const IdParams = z.object({ id: NumericId });

export function segmentRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/segments',
    { schema: { summary: 'List the segments', response: { 200: SegmentList } } },
    async (request) => {
      allowRead(request);
      return segmentService.list(db);
    },
  );

  app.post(
    '/api/admin/segments',
    { schema: { summary: 'Create a segment', body: UpsertSegment, response: { 201: Segment } } },
    async (request, reply) => {
      const principal = allow(request, Permission.CREATE_SEGMENT, { project: request.body.project });
      const created = await changes.run(principal, (change) => segmentService.create(change, request.body));
      return reply.code(201).header('location', `/api/admin/segments/${created.id}`).send(created);
    },
  );

  app.post(
    '/api/admin/segments/validate',
    {
      schema: {
        summary: 'Check that a segment name is free',
        body: z.object({ name: z.string().min(1).max(255) }),
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      allowRead(request);
      await segmentService.validateName(db, request.body.name);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/admin/segments/:id',
    { schema: { summary: 'Get one segment', params: IdParams, response: { 200: Segment } } },
    async (request) => {
      allowRead(request);
      return requireSegment(db, request.params.id);
    },
  );

  app.get(
    '/api/admin/segments/strategies/:strategyId',
    {
      schema: {
        summary: 'The segments a strategy uses',
        params: z.object({ strategyId: z.string().min(1).max(255) }),
        response: { 200: SegmentList },
      },
    },
    async (request) => {
      allowRead(request);
      return segmentService.ofStrategy(db, request.params.strategyId);
    },
  );

  app.get(
    '/api/admin/segments/:id/strategies',
    {
      schema: { summary: 'The strategies that use a segment', params: IdParams, response: { 200: SegmentStrategies } },
    },
    async (request) => {
      allowRead(request);
      return segmentService.strategiesUsing(db, request.params.id);
    },
  );

  app.put(
    '/api/admin/segments/:id',
    { schema: { summary: 'Change a segment', params: IdParams, body: UpsertSegment, response: { 204: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_SEGMENT, { project: request.body.project });
      await changes.run(principal, (change) => segmentService.update(change, request.params.id, request.body));
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/admin/segments/:id',
    { schema: { summary: 'Delete a segment no strategy uses', params: IdParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_SEGMENT);
      await changes.run(principal, (change) => segmentService.delete(change, request.params.id));
      return reply.code(204).send();
    },
  );
}
