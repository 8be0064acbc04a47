import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, type HttpServer } from '@bunting/platform';

const ALLOWED_HEADERS =
  'authorization, content-type, if-none-match, x-api-key, unleash-appname, unleash-connection-id, unleash-instanceid, unleash-sdk, x-unleash-sdk';

/** CORS for browsers: the configured origins (any by default), answered on every frontend route and preflight. */
export function corsHeaders(origins: readonly string[], request: FastifyRequest, reply: FastifyReply) {
  const origin = request.headers.origin;
  if (origins.includes('*')) reply.header('access-control-allow-origin', '*');
  else if (origin && origins.includes(origin))
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
  else return;
  reply.header('access-control-expose-headers', 'ETag, Unleash-Connection-Id');
}

/** The answer to a browser's preflight on the SDK routes. */
export function preflight(_request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(204)
    .header('access-control-allow-methods', 'GET, POST, OPTIONS')
    .header('access-control-allow-headers', ALLOWED_HEADERS)
    .header('access-control-max-age', '86400')
    .send();
}

/**
 * CORS on the routes browsers call, /api/frontend (refused whole when the installation turns the frontend API off)
 * and OFREP, in one hook for both: each hook is a step of its own on every request to the SDK edge.
 */
export function browserRoutesHook(
  app: HttpServer,
  frontendApiEnabled: () => boolean,
  origins: () => readonly string[],
) {
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    if (url.startsWith('/api/frontend')) {
      if (!frontendApiEnabled()) return done(new NotFoundError('The frontend API is disabled on this installation.'));
      corsHeaders(origins(), request, reply);
    } else if (url.startsWith('/ofrep/')) {
      corsHeaders(origins(), request, reply);
    }
    done();
  });
}
