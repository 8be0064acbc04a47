import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ClientFeature,
  ClientFeatures,
  NoContent,
  BulkMetrics,
  ClientMetricsPost,
  ClientRegistration,
  PathName,
} from '@bunting/contracts';
import { NotFoundError, type HttpServer } from '@bunting/platform';
import { metricsEnvelope } from '../metrics/metrics-publisher.ts';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess, type EdgeAccess } from '../access.ts';
import { answerWhenReady, sendAtTurnEnd } from '../turn-end-replies.ts';
import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import { visibleBucket, visibleBulk } from '../metrics/visible-metrics.ts';
import { acceptsGzip } from './gzip-accepted.ts';
import { clientBody, clientEtag, clientFeature, selectFeatures, type ClientQuery } from './client-payload.ts';
import { FeaturesQuery, inlinesSegments, narrowProjects, tagsOf } from './client-query.ts';

export function clientRoutes(
  app: HttpServer,
  deps: Pick<FrontendDeps, 'snapshots' | 'tokens' | 'sendMetrics' | 'counts' | 'admitImpact'>,
) {
  const { snapshots, tokens, counts } = deps;

  // Answered at once when the snapshot is held (the token is checked in memory), else after loading it.
  app.get(
    '/api/client/features',
    {
      schema: {
        summary: "Every flag's configuration for a server SDK, with segments (ETag for 304s)",
        querystring: FeaturesQuery,
        response: { 200: ClientFeatures, 304: NoContent },
      },
    },
    (request, reply) => {
      const access = edgeAccess(tokens, request, 'client');
      const withAccess = (known: EdgeAccess) => {
        const environment = snapshots.current(known.environment);
        if (environment) return sendFeatures(request, reply, known, environment);
        return snapshots.ensure(known.environment).then((loaded) => sendFeatures(request, reply, known, loaded));
      };
      return answerWhenReady(access, withAccess);
    },
  );

  function sendFeatures(
    request: FastifyRequest<{ Querystring: z.infer<typeof FeaturesQuery> }>,
    reply: FastifyReply,
    access: EdgeAccess,
    environment: CompiledEnvironment,
  ) {
    counts.client += 1;
    const query: ClientQuery = {
      projects: narrowProjects(access.projects, request.query.project),
      inlineSegments: inlinesSegments(request),
      namePrefix: request.query.namePrefix,
      tags: tagsOf(request.query.tag),
    };
    const etag = clientEtag(environment, query);
    reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === etag) return sendAtTurnEnd(reply.code(304));
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    if (gzip) reply.header('content-encoding', 'gzip');
    return sendAtTurnEnd(
      reply.type('application/json; charset=utf-8'),
      clientBody(environment, query, etag, gzip ? 'gzip' : 'identity'),
    );
  }

  app.get(
    '/api/client/features/:featureName',
    {
      schema: {
        summary: "One flag's configuration for a server SDK",
        params: z.object({ featureName: PathName }),
        response: { 200: ClientFeature },
      },
    },
    async (request) => {
      const access = await edgeAccess(tokens, request, 'client');
      const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
      const query: ClientQuery = { projects: access.projects, inlineSegments: inlinesSegments(request) };
      const feature = selectFeatures(environment, query).find(
        (candidate) => candidate.name === request.params.featureName,
      );
      if (!feature) throw new NotFoundError(`Could not find feature flag ${request.params.featureName}`);
      const segments = new Map(environment.snapshot.segments.map((segment) => [segment.id, segment]));
      return clientFeature(feature, segments, query.inlineSegments);
    },
  );

  app.post(
    '/api/client/register',
    { schema: { summary: 'A server SDK announcing itself', body: ClientRegistration, response: { 202: NoContent } } },
    async (request, reply) => {
      const access = await edgeAccess(tokens, request, 'client');
      await deps.sendMetrics({
        kind: 'client-register',
        ...metricsEnvelope(access),
        body: request.body,
      });
      return reply.code(202).send();
    },
  );

  app.post(
    '/api/client/metrics',
    {
      schema: {
        summary: "Usage counts and the application's impact metrics from a server SDK",
        body: ClientMetricsPost,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      const access = await edgeAccess(tokens, request, 'client');
      const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
      const { bucket, impactMetrics, ...rest } = request.body;
      const now = new Date().toISOString();
      const admitted = deps.admitImpact(impactMetrics, access.environment);
      const body = {
        ...rest,
        bucket: bucket ?? { start: now, stop: now, toggles: {} },
        ...(admitted ? { impactMetrics: admitted } : {}),
      };
      await deps.sendMetrics({
        kind: 'client-metrics',
        ...metricsEnvelope(access),
        body: visibleBucket(body, access, environment),
      });
      return reply.code(202).send();
    },
  );

  app.post(
    '/api/client/metrics/bulk',
    {
      schema: {
        summary: 'Usage counts, registrations and impact metrics of many SDKs, as Unleash Edge sends them',
        body: BulkMetrics,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      const access = await edgeAccess(tokens, request, 'client');
      const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
      const { impactMetrics, ...rest } = request.body;
      const admitted = deps.admitImpact(impactMetrics, access.environment);
      const body = { ...rest, ...(admitted ? { impactMetrics: admitted } : {}) };
      await deps.sendMetrics({
        kind: 'bulk-metrics',
        ...metricsEnvelope(access),
        body: visibleBulk(body, access, environment),
      });
      return reply.code(202).send();
    },
  );
}
