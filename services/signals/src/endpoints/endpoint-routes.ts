import { z } from 'zod';
import {
  SignalEndpointList,
  SignalEndpointView,
  SignalEndpointDetail,
  SignalEndpointTokenList,
  CreatedSignalEndpointToken,
  NoContent,
  CreateSignalEndpoint,
  CreateSignalEndpointToken,
  NumericId,
  UpdateSignalEndpoint,
} from '@bunting/contracts';
import { Permission, actorOf, principalOf, requirePermission, type HttpServer } from '@bunting/platform';
import type { FastifyRequest } from 'fastify';
import type { SignalsDeps } from '../signals-deps.ts';
import { createEndpointService } from './endpoint-service.ts';

const IdParams = z.object({ id: NumericId });
const TokenParams = z.object({ id: NumericId, tokenId: NumericId });

/** Creating and managing signal endpoints needs ADMIN (spec, authentication rule 6). */
function asAdmin(request: FastifyRequest) {
  const principal = principalOf(request);
  requirePermission(principal, Permission.ADMIN);
  return actorOf(principal);
}

export function endpointRoutes(
  app: HttpServer,
  { db, changes, config }: Pick<SignalsDeps, 'db' | 'changes' | 'config'>,
) {
  const endpoints = createEndpointService(config);

  app.get(
    '/api/admin/signal-endpoints',
    { schema: { summary: 'List the signal endpoints with their tokens', response: { 200: SignalEndpointList } } },
    async (request) => {
      asAdmin(request);
      return endpoints.list(db);
    },
  );
  app.post(
    '/api/admin/signal-endpoints',
    {
      schema: {
        summary: 'Create a signal endpoint',
        body: CreateSignalEndpoint,
        response: { 201: SignalEndpointView },
      },
    },
    async (request, reply) => {
      const created = await changes.run(asAdmin(request), (change) => endpoints.create(change, request.body));
      return reply.code(201).header('location', `/api/admin/signal-endpoints/${created.id}`).send(created);
    },
  );
  app.get(
    '/api/admin/signal-endpoints/:id',
    { schema: { summary: 'Get one signal endpoint', params: IdParams, response: { 200: SignalEndpointDetail } } },
    async (request) => {
      asAdmin(request);
      return endpoints.get(db, request.params.id);
    },
  );
  app.put(
    '/api/admin/signal-endpoints/:id',
    {
      schema: {
        summary: 'Change a signal endpoint',
        params: IdParams,
        body: UpdateSignalEndpoint,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await changes.run(asAdmin(request), (change) => endpoints.update(change, request.params.id, request.body));
      return reply.code(200).send();
    },
  );
  for (const [action, enabled, summary] of [
    ['on', true, 'Turn a signal endpoint on'],
    ['off', false, 'Turn a signal endpoint off (it refuses signals)'],
  ] as const) {
    app.post(
      `/api/admin/signal-endpoints/:id/${action}`,
      { schema: { summary, params: IdParams, response: { 200: NoContent } } },
      async (request, reply) => {
        await changes.run(asAdmin(request), (change) => endpoints.update(change, request.params.id, { enabled }));
        return reply.code(200).send();
      },
    );
  }
  app.delete(
    '/api/admin/signal-endpoints/:id',
    { schema: { summary: 'Delete a signal endpoint', params: IdParams, response: { 200: NoContent } } },
    async (request, reply) => {
      await changes.run(asAdmin(request), (change) => endpoints.delete(change, request.params.id));
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/signal-endpoints/:id/tokens',
    {
      schema: {
        summary: "List a signal endpoint's tokens",
        params: IdParams,
        response: { 200: SignalEndpointTokenList },
      },
    },
    async (request) => {
      asAdmin(request);
      return { signalEndpointTokens: (await endpoints.get(db, request.params.id)).tokens };
    },
  );
  app.post(
    '/api/admin/signal-endpoints/:id/tokens',
    {
      schema: {
        summary: 'Create a token for a signal endpoint (the secret shown once)',
        params: IdParams,
        body: CreateSignalEndpointToken,
        response: { 201: CreatedSignalEndpointToken },
      },
    },
    async (request, reply) => {
      const created = await changes.run(asAdmin(request), (change) =>
        endpoints.createToken(change, request.params.id, request.body.name),
      );
      return reply
        .code(201)
        .header('location', `/api/admin/signal-endpoints/${request.params.id}/tokens/${created.id}`)
        .send(created);
    },
  );
  app.put(
    '/api/admin/signal-endpoints/:id/tokens/:tokenId',
    {
      schema: {
        summary: "Rename a signal endpoint's token",
        params: TokenParams,
        body: CreateSignalEndpointToken,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await changes.run(asAdmin(request), (change) =>
        endpoints.renameToken(change, request.params.id, request.params.tokenId, request.body.name),
      );
      return reply.code(200).send();
    },
  );
  app.delete(
    '/api/admin/signal-endpoints/:id/tokens/:tokenId',
    { schema: { summary: "Revoke a signal endpoint's token", params: TokenParams, response: { 200: NoContent } } },
    async (request, reply) => {
      await changes.run(asAdmin(request), (change) =>
        endpoints.deleteToken(change, request.params.id, request.params.tokenId),
      );
      return reply.code(200).send();
    },
  );
}
