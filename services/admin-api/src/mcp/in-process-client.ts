import type { FastifyRequest } from 'fastify';
import type { BuntingClient } from '@bunting/api-client';
import type { HttpServer } from '@bunting/platform';
import { toolClient } from '@bunting/mcp';

type InjectMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The remote MCP server's way to the API: the typed client, each call a request through this process's own routes
 * (their checks, permissions and change-request gate) with the agent's credential and its client named. A route
 * another service serves, in a split deployment, is asked through the installation's URL instead.
 */
export function inProcessClient(
  app: HttpServer,
  request: FastifyRequest,
  via: string,
  elsewhere: string | null,
  delegated?: string,
): BuntingClient {
  // An agent's own token is for the MCP endpoint alone: its calls carry the credential made for this request instead.
  const credential: Record<string, string> =
    delegated !== undefined
      ? { authorization: `Bearer ${delegated}` }
      : {
          ...(typeof request.headers.authorization === 'string'
            ? { authorization: request.headers.authorization }
            : {}),
          ...(typeof request.headers.cookie === 'string' ? { cookie: request.headers.cookie } : {}),
        };
  const remote = elsewhere === null || credential.authorization === undefined ? null : elsewhere.replace(/\/+$/, '');
  return toolClient({
    baseUrl: 'http://in-process',
    via: () => via,
    fetch: async (call) => {
      const url = new URL(call.url);
      const path = `${url.pathname}${url.search}`;
      const body = call.body === null ? undefined : await call.text();
      const answer = await app.inject({
        method: call.method as InjectMethod,
        url: path,
        headers: { ...Object.fromEntries(call.headers), ...credential },
        ...(body === undefined ? {} : { payload: body }),
      });
      if (answer.statusCode === 404 && remote !== null && isMissingRoute(answer.body, call.method)) {
        return fetch(`${remote}${path}`, {
          method: call.method,
          headers: { ...Object.fromEntries(call.headers), authorization: credential.authorization! },
          ...(body === undefined ? {} : { body }),
          signal: call.signal,
        });
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (typeof value === 'number') headers.set(name, String(value));
      }
      const empty = answer.statusCode === 204 || answer.statusCode === 304 || answer.rawPayload.length === 0;
      return new Response(empty ? null : answer.body, { status: answer.statusCode, headers });
    },
  });
}

// The not-found handler's words for a path no route of this process serves (not a resource the route did not find).
function isMissingRoute(body: string, method: string): boolean {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' && parsed.message.startsWith(`Could not find ${method} `);
  } catch {
    return false;
  }
}
