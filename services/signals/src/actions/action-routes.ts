import { z } from 'zod';
import {
  ActionSetList,
  ActionSetView,
  ActionSetEvents,
  NoContent,
  CreateActionSet,
  NumericId,
  PathName,
} from '@bunting/contracts';
import { Permission, actorOf, principalOf, requirePermission, type HttpServer } from '@bunting/platform';
import type { FastifyRequest } from 'fastify';
import type { SignalsDeps } from '../signals-deps.ts';
import { actionStore } from './action-store.ts';
import { actionService, requireActionSet, type ActionDeps } from './action-service.ts';

const ProjectParams = z.object({ projectId: PathName });
const SetParams = ProjectParams.extend({ id: NumericId });

function asAdmin(request: FastifyRequest) {
  const principal = principalOf(request);
  requirePermission(principal, Permission.ADMIN);
  return actorOf(principal);
}

export function actionRoutes(app: HttpServer, deps: Pick<SignalsDeps, 'db' | 'changes'> & { actionDeps: ActionDeps }) {
  const { db, changes, actionDeps } = deps;
  const base = '/api/admin/projects/:projectId/actions';

  app.get(
    base,
    { schema: { summary: "List a project's action sets", params: ProjectParams, response: { 200: ActionSetList } } },
    async (request) => {
      asAdmin(request);
      return actionService.list(db, request.params.projectId);
    },
  );
  app.post(
    base,
    {
      schema: {
        summary: 'Create an action set: which signals, which filters, what to do',
        params: ProjectParams,
        body: CreateActionSet,
        response: { 201: ActionSetView },
      },
    },
    async (request, reply) => {
      const created = await changes.run(asAdmin(request), (change) =>
        actionService.create(change, actionDeps, request, request.params.projectId, request.body),
      );
      return reply
        .code(201)
        .header('location', `/api/admin/projects/${encodeURIComponent(request.params.projectId)}/actions/${created.id}`)
        .send(created);
    },
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        summary: 'Change an action set',
        params: SetParams,
        body: CreateActionSet,
        response: { 200: ActionSetView },
      },
    },
    async (request) =>
      changes.run(asAdmin(request), (change) =>
        actionService.update(change, actionDeps, request, request.params.projectId, request.params.id, request.body),
      ),
  );
  for (const [action, enabled] of [
    ['on', true],
    ['off', false],
  ] as const) {
    app.post(
      `${base}/:id/${action}`,
      { schema: { summary: `Turn an action set ${action}`, params: SetParams, response: { 200: NoContent } } },
      async (request, reply) => {
        await changes.run(asAdmin(request), (change) =>
          actionService.setEnabled(change, request.params.projectId, request.params.id, enabled),
        );
        return reply.code(200).send();
      },
    );
  }
  app.delete(
    `${base}/:id`,
    { schema: { summary: 'Delete an action set', params: SetParams, response: { 200: NoContent } } },
    async (request, reply) => {
      await changes.run(asAdmin(request), (change) =>
        actionService.delete(change, request.params.projectId, request.params.id),
      );
      return reply.code(200).send();
    },
  );
  app.get(
    `${base}/:id/events`,
    {
      schema: {
        summary: 'What an action set did for each signal that matched',
        params: SetParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(50) }),
        response: { 200: ActionSetEvents },
      },
    },
    async (request) => {
      asAdmin(request);
      await requireActionSet(db, request.params.projectId, request.params.id);
      return { actionSetEvents: await actionStore.runs(db, request.params.id, request.query.limit) };
    },
  );
}
