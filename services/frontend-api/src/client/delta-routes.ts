import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { DeltaAnswer, NoContent, textAnswer } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess, secretOf, stillValid } from '../access.ts';
import { shortHash, type CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import { deltaEvents } from './client-delta.ts';
import { queryKey, type ClientQuery } from './client-payload.ts';
import { FeaturesQuery, narrowProjects, tagsOf } from './client-query.ts';
import { createStreamUpdates, sseMessage } from './stream-updates.ts';
import { beginStream, writeToStream } from '../stream-writes.ts';
import { openStreams } from '../open-streams.ts';

/** The revision an SDK says it holds, if its ETag was made for the same query; null otherwise. */
function heldRevision(header: string | undefined, tag: string): number | null {
  const match = header?.match(/^"([0-9a-f]+):(\d+)"$/);
  return match && match[1] === tag ? Number(match[2]) : null;
}

/**
 * The delta protocol of the Unleash SDKs (client spec 5.2): /api/client/delta answers what changed since the
 * revision in If-None-Match, /api/client/streaming pushes it as server-sent events. A revision this replica
 * cannot reach by known steps gets a full hydration instead, so nothing is ever missed.
 */
export function deltaRoutes(app: HttpServer, deps: Pick<FrontendDeps, 'snapshots' | 'tokens' | 'counts'>) {
  const { snapshots, tokens, counts } = deps;
  const open = openStreams(app);
  counts.streamsOpen = open.size;
  const updates = createStreamUpdates(snapshots.changesSince);

  async function resolve(request: FastifyRequest<{ Querystring: z.infer<typeof FeaturesQuery> }>) {
    const access = await edgeAccess(tokens, request, 'client');
    const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
    counts.delta += 1;
    const query: ClientQuery = {
      projects: narrowProjects(access.projects, request.query.project),
      inlineSegments: false,
      namePrefix: request.query.namePrefix,
      tags: tagsOf(request.query.tag),
    };
    return { environment, query, tag: shortHash(queryKey(query)) };
  }

  app.get(
    '/api/client/delta',
    {
      schema: {
        summary: 'What changed since the revision the SDK holds (ETag), or everything',
        querystring: FeaturesQuery,
        response: { 200: DeltaAnswer, 304: NoContent },
      },
    },
    async (request, reply) => {
      const { environment, query, tag } = await resolve(request);
      reply.header('etag', `"${tag}:${environment.revision}"`).header('cache-control', 'no-cache');
      const held = heldRevision(request.headers['if-none-match'], tag);
      if (held === environment.revision) return reply.code(304).send();
      const changes = held === null ? null : snapshots.changesSince(environment.environment, held);
      return { events: deltaEvents(environment, query, changes) };
    },
  );

  app.get(
    '/api/client/streaming',
    {
      schema: {
        summary: 'A stream of changes for a server SDK (server-sent events)',
        querystring: FeaturesQuery,
        response: {
          200: textAnswer(
            'text/event-stream',
            'Server-sent events: unleash-connected with a hydration (or the changes since Last-Event-ID), then unleash-updated per change',
          ),
        },
      },
    },
    async (request, reply) => {
      const { environment, query } = await resolve(request);
      const lastEventId = Number(request.headers['last-event-id']);
      const resumed = Number.isInteger(lastEventId)
        ? snapshots.changesSince(environment.environment, lastEventId)
        : null;

      const secret = secretOf(request);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      let sent = environment.revision;
      beginStream(
        raw,
        resumed === null
          ? updates.hydrationFor(environment, query)
          : sseMessage('unleash-connected', sent, deltaEvents(environment, query, resumed)),
      );

      const onRevision = (next: CompiledEnvironment) => {
        if (next.revision <= sent || raw.destroyed) return;
        // A token revoked since the stream opened gets no more changes: its stream ends instead.
        if (!stillValid(tokens, secret)) return close();
        const message = updates.messageFor(next, query, sent);
        sent = next.revision;
        if (message !== null) writeToStream(raw, message);
      };
      const unsubscribe = snapshots.subscribe(environment.environment, onRevision);
      const close = () => {
        unsubscribe();
        open.remove(close);
        if (!raw.destroyed) raw.end();
      };
      open.add(close, raw);
      raw.on('close', close);
    },
  );
}
