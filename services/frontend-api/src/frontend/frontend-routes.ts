import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ClientMetrics, ClientRegistration, PathName } from '@bunting/contracts';
import { NotFoundError, ValidationError, type HttpServer } from '@bunting/platform';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess } from '../access.ts';
import { publishMetrics } from '../metrics/metrics-publisher.ts';
import { frontendContext } from './frontend-context.ts';

const ALLOWED_HEADERS = 'authorization, content-type, if-none-match, unleash-appname, unleash-connection-id, unleash-instanceid, unleash-sdk, x-unleash-sdk';

/** CORS for browsers: the configured origins (any by default), answered on every frontend route and preflight. */
function corsHeaders(origins: readonly string[], request: FastifyRequest, reply: FastifyReply) {
  const origin = request.headers.origin;
  if (origins.includes('*')) reply.header('access-control-allow-origin', '*');
  else if (origin && origins.includes(origin)) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
  else return;
  reply.header('access-control-expose-headers', 'ETag, Unleash-Connection-Id');
}

export function frontendRoutes(app: HttpServer, deps: FrontendDeps) {
  const { config, snapshots, verifier } = deps;

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/frontend')) return;
    if (!config.frontendApiEnabled) throw new NotFoundError('The frontend API is disabled on this installation.');
    corsHeaders(config.allowedOrigins, request, reply);
  });

  app.options('/api/frontend', preflight);
  app.options('/api/frontend/*', preflight);
  function preflight(_request: FastifyRequest, reply: FastifyReply) {
    return reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', '86400')
      .send();
  }

  async function answer(request: FastifyRequest, reply: FastifyReply, input: Record<string, unknown>, only?: string) {
    const access = await edgeAccess(verifier, request, 'frontend', typeof input.environment === 'string' ? input.environment : undefined);
    const context = frontendContext(input, request.ip);
    if (context.environment === undefined) context.environment = access.environment;
    const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
    const features = environment.visibleFeatures(access.projects);
    const parts: string[] = [];
    for (const feature of features) {
      if (only !== undefined && feature.compiled.name !== only) continue;
      const result = feature.compiled.evaluate(context);
      if (!result.enabled) continue;
      parts.push(feature.prefix + (result.variant ? feature.variantJson(result.variant) : feature.disabledVariant) + feature.suffix);
    }
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
    if (only !== undefined) {
      if (parts.length === 0) throw new NotFoundError(`Flag ${only} is not enabled for this context`);
      return reply.send(parts[0]);
    }
    return reply.send(`{"toggles":[${parts.join(',')}]}`);
  }

  app.get('/api/frontend', (request, reply) => answer(request, reply, request.query as Record<string, unknown>));

  app.post('/api/frontend', (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw ValidationError.field('context', 'must be an object');
    const context = body.context ?? body;
    if (typeof context !== 'object' || context === null || Array.isArray(context)) throw ValidationError.field('context', 'must be an object');
    return answer(request, reply, context as Record<string, unknown>);
  });

  const FlagParams = z.object({ featureName: PathName });
  app.get('/api/frontend/features/:featureName', { schema: { params: FlagParams } }, (request, reply) =>
    answer(request, reply, request.query as Record<string, unknown>, request.params.featureName));
  app.post('/api/frontend/features/:featureName', { schema: { params: FlagParams } }, (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    return answer(request, reply, (body.context ?? body) as Record<string, unknown>, request.params.featureName);
  });

  app.post('/api/frontend/client/metrics', { schema: { body: ClientMetrics } }, async (request, reply) => {
    const access = await edgeAccess(verifier, request, 'frontend');
    await publishMetrics(deps.messaging, 'frontend', { kind: 'frontend-metrics', environment: access.environment, tokenName: access.principal.name, body: request.body });
    return reply.code(200).send();
  });

  app.post('/api/frontend/client/register', { schema: { body: ClientRegistration.partial({ appName: true }) } }, async (request, reply) => {
    const access = await edgeAccess(verifier, request, 'frontend');
    await publishMetrics(deps.messaging, 'frontend', { kind: 'frontend-register', environment: access.environment, tokenName: access.principal.name, body: request.body });
    return reply.code(200).send();
  });
}
