import { z } from 'zod';
import { AgentTokenList, NoContent, NumericId } from '@bunting/contracts';
import { NoAccessError, Permission, principalOf, type HttpServer } from '@bunting/platform';
import type { FastifyRequest } from 'fastify';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { agentTokenService } from './agent-token-service.ts';

const IdParams = z.object({ id: NumericId });

/** The agents (MCP clients) people connected through OAuth: each person sees and revokes theirs, admins everyone's. */
export function agentTokenRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  const person = (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (principal.userId === null || principal.kind === 'api-token')
      throw new NoAccessError('CREATE_PERSONAL_ACCESS_TOKEN');
    return principal;
  };

  app.get(
    '/api/admin/user/agents',
    {
      schema: {
        summary: 'List the agents (MCP clients) the caller connected, with their scopes and expiry',
        response: { 200: AgentTokenList },
      },
    },
    async (request) => agentTokenService.list(db, person(request).userId),
  );

  app.delete(
    '/api/admin/user/agents/:id',
    {
      schema: {
        summary: "Disconnect one of the caller's agents: its token stops working at once",
        params: IdParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = person(request);
      await changes.run(principal, (change) => agentTokenService.revoke(change, request.params.id, principal.userId));
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/agents',
    { schema: { summary: 'List every connected agent (MCP clients), by person', response: { 200: AgentTokenList } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return agentTokenService.list(db, null);
    },
  );

  app.delete(
    '/api/admin/agents/:id',
    {
      schema: {
        summary: "Disconnect anyone's agent: its token stops working at once",
        params: IdParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, (change) => agentTokenService.revoke(change, request.params.id, null));
      return reply.code(200).send();
    },
  );
}
