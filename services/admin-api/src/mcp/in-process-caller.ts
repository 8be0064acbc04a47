import type { FastifyRequest } from 'fastify';
import type { HttpServer } from '@bunting/platform';
import { VIA_HEADER, httpCaller, parseBody, type ApiCaller } from '@bunting/mcp';

/**
 * The remote MCP server's way to the API: each tool call is a request through this process's own routes (their
 * checks, permissions and change-request gate) with the agent's credential and its client named. A route another
 * service serves, in a split deployment, is asked through the installation's URL instead.
 */
export function inProcessCaller(
  app: HttpServer,
  request: FastifyRequest,
  via: string,
  elsewhere: string | null,
  delegated?: string,
): ApiCaller {
  // An agent's own token is for the MCP endpoint alone: its calls carry the credential made for this request instead.
  const credential =
    delegated !== undefined
      ? { authorization: `Bearer ${delegated}` }
      : {
          ...(typeof request.headers.authorization === 'string'
            ? { authorization: request.headers.authorization }
            : {}),
          ...(typeof request.headers.cookie === 'string' ? { cookie: request.headers.cookie } : {}),
        };
  const remote =
    elsewhere === null || credential.authorization === undefined
      ? null
      : httpCaller({ baseUrl: elsewhere, token: credential.authorization, via: () => via });
  return {
    async call(method, path, body) {
      const answer = await app.inject({
        method,
        url: path,
        headers: {
          ...credential,
          [VIA_HEADER]: via,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      const parsed = parseBody(answer.body);
      if (answer.statusCode === 404 && remote !== null && isMissingRoute(parsed, method))
        return remote.call(method, path, body);
      return { status: answer.statusCode, body: parsed };
    },
  };
}

// The not-found handler's words for a path no route of this process serves (not a resource the route did not find).
const isMissingRoute = (body: unknown, method: string) =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as { message?: unknown }).message === 'string' &&
  (body as { message: string }).message.startsWith(`Could not find ${method} `);
