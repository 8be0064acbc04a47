import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger, Redis } from '@bunting/platform';
import { viaLabel } from '@bunting/mcp';

const SESSION_SECONDS = 86_400;
const SESSION_HEADER = 'mcp-session-id';

/**
 * Which MCP client a request comes from, for the event log. The server keeps no session (any replica answers any
 * request), so the name the client gives when it initialises is kept in Redis under a session id the client then
 * sends with every request; without one, the user agent names it.
 */
export function clientLabels(redis: Redis, namespace: string, log: Logger) {
  const key = (id: string) => `${namespace}:mcp-client:${id}`;
  return {
    async of(request: FastifyRequest, reply: FastifyReply): Promise<string> {
      const body = request.body as {
        method?: unknown;
        params?: { clientInfo?: { name?: string; version?: string } };
      } | null;
      if (body !== null && typeof body === 'object' && body.method === 'initialize') {
        const label = viaLabel(body.params?.clientInfo);
        const id = randomUUID();
        reply.raw.setHeader(SESSION_HEADER, id);
        await redis
          .set(key(id), label, 'EX', SESSION_SECONDS)
          .catch((error: unknown) => log.warn({ err: error }, 'MCP client name not kept'));
        return label;
      }
      const session = request.headers[SESSION_HEADER];
      if (typeof session === 'string' && /^[0-9a-f-]{36}$/.test(session)) {
        const label = await redis.get(key(session)).catch(() => null);
        if (label) return label;
      }
      const agent = request.headers['user-agent'];
      return viaLabel({ name: typeof agent === 'string' ? agent.slice(0, 100) : 'unknown client' });
    },
  };
}
