import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { textAnswer } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess, secretOf, stillValid, type EdgeAccess } from '../access.ts';
import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import type { ChangesSince } from '../snapshots/revision-changes.ts';
import { openStreams } from '../open-streams.ts';
import { beginStream, writeToStream } from '../stream-writes.ts';

/** How long a browser may be away before its provider closes the stream (and fetches afresh when it is back). */
export const INACTIVITY_DELAY_SEC = 120;

/** The address a bulk answer gives static-context providers (frontend tokens, public by design) for change events. */
export function eventStreamUrl(request: FastifyRequest, secret: string): string {
  return `${request.protocol}://${request.host}/ofrep/v1/event-stream?token=${encodeURIComponent(secret)}`;
}

/** The validator a change event carries: the environment's revision, which the bulk endpoint reads back as sseEtag. */
export const revisionTag = (revision: number) => `"${revision}"`;
export function revisionOf(sseEtag: string | undefined): number | null {
  const match = sseEtag?.match(/^"?(\d{1,15})"?$/);
  return match ? Number(match[1]) : null;
}

// One event per revision, encoded once for every stream told of it.
const refetchEvents = new WeakMap<CompiledEnvironment, Buffer>();

function refetchEvent(environment: CompiledEnvironment): Buffer {
  let event = refetchEvents.get(environment);
  if (event === undefined) {
    const data = {
      type: 'refetchEvaluation',
      etag: revisionTag(environment.revision),
      lastModified: Math.floor(Date.now() / 1000),
    };
    event = Buffer.from(`id: ${environment.revision}\nevent: message\ndata: ${JSON.stringify(data)}\n\n`);
    refetchEvents.set(environment, event);
  }
  return event;
}

/** Whether changes touch what a token sees: a flag of its projects, or any segment (segments reach every project). */
function touches(changes: ChangesSince | null, projects: readonly string[]): boolean {
  if (changes === null || changes.segments.size > 0) return true;
  if (projects.includes('*')) return changes.features.size > 0;
  for (const project of changes.features.values()) if (projects.includes(project)) return true;
  return false;
}

/**
 * OFREP's change events (ADR-0008): server-sent events that tell a static-context provider to fetch the bulk
 * evaluation again, with the revision as its etag. Browsers' EventSource sends no headers, so the token may come in
 * the query as well; the stream ends when the token is revoked or the server stops, and resumes with Last-Event-ID.
 */
export function ofrepEventStreamRoutes(app: HttpServer, deps: Pick<FrontendDeps, 'snapshots' | 'tokens'>) {
  const { snapshots, tokens } = deps;
  const open = openStreams(app);

  app.get(
    '/ofrep/v1/event-stream',
    {
      schema: {
        summary: 'OFREP change events for the bulk evaluation (server-sent events, refetchEvaluation)',
        querystring: z.object({ token: z.string().min(1).max(1000).optional() }),
        response: {
          200: textAnswer(
            'text/event-stream',
            'Server-sent events: refetchEvaluation with the revision as etag, whenever what the token sees changes',
          ),
        },
      },
    },
    async (request, reply) => {
      if (request.query.token && !request.headers.authorization) request.headers.authorization = request.query.token;
      const access: EdgeAccess = await edgeAccess(tokens, request, ['frontend', 'client']);
      const environment = snapshots.current(access.environment) ?? (await snapshots.ensure(access.environment));
      const secret = secretOf(request);
      reply.hijack();
      const raw = reply.raw;
      // The CORS headers the browser hooks set are kept: the stream is written past Fastify.
      const set = Object.fromEntries(
        Object.entries(reply.getHeaders()).filter(
          (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
        ),
      );
      raw.writeHead(200, {
        ...set,
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      beginStream(raw, `retry: 2000\n\n`);
      let sent = environment.revision;
      const lastEventId = Number(request.headers['last-event-id']);
      if (
        Number.isInteger(lastEventId) &&
        lastEventId < sent &&
        touches(snapshots.changesSince(environment.environment, lastEventId), access.projects)
      ) {
        writeToStream(raw, refetchEvent(environment));
      }
      const close = () => {
        unsubscribe();
        open.remove(close);
        if (!raw.destroyed) raw.end();
      };
      const unsubscribe = snapshots.subscribe(environment.environment, (next) => {
        if (next.revision <= sent || raw.destroyed) return;
        if (!stillValid(tokens, secret)) return close();
        const changes = snapshots.changesSince(next.environment, sent);
        sent = next.revision;
        if (touches(changes, access.projects)) writeToStream(raw, refetchEvent(next));
      });
      open.add(close, raw);
      raw.on('close', close);
    },
  );
}
