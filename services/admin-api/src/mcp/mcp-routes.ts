import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createBuntingMcpServer } from '@bunting/mcp';
import { NoContent, RemoteMcpSettings } from '@bunting/contracts';
import { DomainError, NotFoundError, Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { clientLabels } from './client-label.ts';
import { inProcessClient } from './in-process-client.ts';
import { loadRemoteMcp, saveRemoteMcp } from './remote-mcp-setting.ts';
import { challengeHeader } from './oauth-routes.ts';
import { trustedAddresses } from './trusted-addresses.ts';

export const MCP_PATH = '/api/admin/mcp';
// A tool's arguments are bounded by its schema; a larger body still reaches the schema, which says what is too big.
const MCP_BODY_LIMIT = 4 * 1024 * 1024;
const JsonRpcBody = z.unknown().describe('A JSON-RPC message (or batch) of the Model Context Protocol');

/**
 * The remote MCP server: Streamable HTTP, stateless (a server per request, so any replica answers), acting as the
 * caller through the API's own routes. Off (an instance setting) it answers 404.
 */
export function mcpRoutes(
  app: HttpServer,
  {
    db,
    changes,
    redis,
    namespace,
    log,
    config,
    delegations,
  }: Pick<AdminDeps, 'db' | 'changes' | 'redis' | 'namespace' | 'log' | 'config' | 'delegations'>,
) {
  const labels = clientLabels(redis, namespace, log);
  const elsewhere = config.mcpApiUrl;
  const addresses = trustedAddresses(config);

  const requireOn = async () => {
    if (!(await loadRemoteMcp(db)).enabled)
      throw new NotFoundError(
        'The remote MCP server is turned off on this instance (PUT /api/admin/remote-mcp/settings).',
      );
  };
  // DNS rebinding: a browser sent here by another site's page is refused whatever credential it carries.
  const trusted = async (request: FastifyRequest) => addresses.check(request);

  app.post(
    MCP_PATH,
    {
      bodyLimit: MCP_BODY_LIMIT,
      onRequest: trusted,
      // A client without a token learns from the 401 where to get one (the OAuth flow in oauth-routes.ts).
      onSend: async (request, reply, payload) => {
        if (reply.statusCode === 401 && addresses.hostAllowed(request))
          reply.header('www-authenticate', challengeHeader(addresses.baseOf(request)));
        return payload;
      },
      schema: {
        summary: 'The MCP server for coding agents (Streamable HTTP): flags, rollouts, release plans, change requests',
        description:
          'Takes an OAuth token issued to the MCP client, a personal access token or a service-account token as a Bearer token. Every tool ' +
          'acts as that user through this API, with its permissions (reading alone for the mcp:read scope) and change-request gate; events ' +
          "record the MCP client as createdVia. Requests under another Host, or from another site's page (Origin), are refused.",
        body: JsonRpcBody,
        // Answered by the protocol's transport: a JSON-RPC answer, or 202 for a notification.
        response: { 200: JsonRpcBody, 202: NoContent },
      },
    },
    async (request, reply) => {
      await requireOn();
      const principal = allowRead(request);
      if (principal.kind === 'api-token') {
        throw new DomainError(
          403,
          'NoAccessError',
          'The MCP server acts as a user: connect with a personal access token or a service-account token, not an API token.',
        );
      }
      const via = await labels.of(request, reply);
      const delegated =
        principal.kind === 'agent' ? await delegations.issue(Number(principal.key.slice('agent:'.length))) : undefined;
      const server = createBuntingMcpServer(inProcessClient(app, request, via, elsewhere, delegated));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
        if (delegated !== undefined)
          delegations
            .end(delegated)
            .catch((error: unknown) => log.warn({ err: error }, "an agent's delegated credential was left to expire"));
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  // No server-initiated stream and no session to end: the protocol's answer for both is 405.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      // Left out of the OpenAPI document: they only say the method is not offered.
      schema: {
        hide: true,
        summary: `${method} on the MCP endpoint: not offered (no server stream, no sessions)`,
        response: { 405: z.object({ message: z.string() }) },
      },
      onRequest: trusted,
      handler: async (_request, reply) => {
        await requireOn();
        return reply
          .code(405)
          .header('allow', 'POST')
          .send({ message: `${method} is not offered: send MCP messages with POST.` });
      },
    });
  }

  app.get(
    '/api/admin/remote-mcp/settings',
    { schema: { summary: 'Whether the remote MCP server answers', response: { 200: RemoteMcpSettings } } },
    async (request) => {
      allowRead(request);
      return loadRemoteMcp(db);
    },
  );
  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: '/api/admin/remote-mcp/settings',
      schema: {
        summary: 'Turn the remote MCP server on or off',
        body: RemoteMcpSettings,
        response: { 204: NoContent },
      },
      handler: async (request, reply) => {
        const principal = allow(request, Permission.ADMIN);
        await changes.run(principal, (change) => saveRemoteMcp(change, request.body));
        return reply.code(204).send();
      },
    });
  }
}
