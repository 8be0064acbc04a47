import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BulkMetrics, ClientMetrics, ClientRegistration, PathName } from '@bunting/contracts';
import { NotFoundError, type HttpServer } from '@bunting/platform';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess, knownEdgeAccess, type EdgeAccess } from '../access.ts';
import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import { publishMetrics } from '../metrics/metrics-publisher.ts';
import { clientBody, clientEtag, clientFeature, selectFeatures, type ClientQuery } from './client-payload.ts';
import { FeaturesQuery, inlinesSegments, narrowProjects, tagsOf } from './client-query.ts';

export function clientRoutes(app: HttpServer, deps: FrontendDeps) {
  const { snapshots, verifier } = deps;

  // Answered at once when the token's check and the snapshot are known (SDKs poll with the same token), else after
  // waiting for them.
  app.get('/api/client/features', { schema: { querystring: FeaturesQuery } }, (request, reply) => {
    const known = knownEdgeAccess(verifier, request, 'client', request.query.environment);
    const environment = known && snapshots.current(known.environment);
    if (known && environment) return sendFeatures(request, reply, known, environment);
    return (async () => {
      const access = await edgeAccess(verifier, request, 'client', request.query.environment);
      return sendFeatures(request, reply, access, snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment)));
    })();
  });

  function sendFeatures(request: FastifyRequest<{ Querystring: z.infer<typeof FeaturesQuery> }>, reply: FastifyReply, access: EdgeAccess, environment: CompiledEnvironment) {
    const query: ClientQuery = {
      projects: narrowProjects(access.projects, request.query.project),
      inlineSegments: inlinesSegments(request),
      namePrefix: request.query.namePrefix,
      tags: tagsOf(request.query.tag),
    };
    const etag = clientEtag(environment, query);
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(clientBody(environment, query, etag));
  }

  app.get('/api/client/features/:featureName', { schema: { params: z.object({ featureName: PathName }) } }, async (request) => {
    const access = await edgeAccess(verifier, request, 'client');
    const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
    const query: ClientQuery = { projects: access.projects, inlineSegments: inlinesSegments(request) };
    const feature = selectFeatures(environment, query).find((candidate) => candidate.name === request.params.featureName);
    if (!feature) throw new NotFoundError(`Could not find feature flag ${request.params.featureName}`);
    const segments = new Map(environment.snapshot.segments.map((segment) => [segment.id, segment]));
    return clientFeature(feature, segments, query.inlineSegments);
  });

  app.post('/api/client/register', { schema: { body: ClientRegistration } }, async (request, reply) => {
    const access = await edgeAccess(verifier, request, 'client');
    await publishMetrics(deps.messaging, 'register', { kind: 'client-register', environment: access.environment, tokenName: access.principal.name, body: request.body });
    return reply.code(202).send();
  });

  app.post('/api/client/metrics', { schema: { body: ClientMetrics } }, async (request, reply) => {
    const access = await edgeAccess(verifier, request, 'client');
    await publishMetrics(deps.messaging, 'client', { kind: 'client-metrics', environment: access.environment, tokenName: access.principal.name, body: request.body });
    return reply.code(202).send();
  });

  app.post('/api/client/metrics/bulk', { schema: { body: BulkMetrics } }, async (request, reply) => {
    const access = await edgeAccess(verifier, request, 'client');
    await publishMetrics(deps.messaging, 'client', { kind: 'client-metrics', environment: access.environment, tokenName: access.principal.name, body: request.body });
    return reply.code(202).send();
  });
}
