import { createServer, type Server } from 'node:http';
import { z } from 'zod';
import { textAnswer } from '@bunting/contracts';
import type { Metrics } from './metrics.ts';
import type { HttpServer } from './http-server.ts';

/** A check /ready runs. A check that is not critical is reported but does not make the process unready. */
export type ReadinessCheck = { name: string; check: () => Promise<void>; critical?: boolean };

/** The checks of one process: its connections', and those its services add (the SDK edge: "has something to serve"). */
export type Readiness = { add: (check: ReadinessCheck) => void; checks: () => readonly ReadinessCheck[] };

export function createReadiness(): Readiness {
  const checks: ReadinessCheck[] = [];
  return { add: (check) => void checks.push(check), checks: () => checks };
}

async function evaluate(checks: readonly ReadinessCheck[]) {
  const results = await Promise.all(
    checks.map(async ({ name, check, critical = true }) => {
      try {
        await withTimeout(check(), 2000);
        return { name, ok: true, critical };
      } catch (error) {
        return { name, ok: false, critical, error: (error as Error).message };
      }
    }),
  );
  const ready = results.every((result) => result.ok || !result.critical);
  const health = !ready
    ? ('BAD' as const)
    : results.every((result) => result.ok)
      ? ('GOOD' as const)
      : ('DEGRADED' as const);
  return { ready, body: { health, checks: results } };
}

const Health = z.object({ health: z.literal('GOOD') });
const ReadinessAnswer = z.object({
  health: z.enum(['GOOD', 'DEGRADED', 'BAD']),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), critical: z.boolean(), error: z.string().optional() })),
});

/** /health says the process is alive; /ready runs every check: 503 when a critical one fails, DEGRADED when only others do. */
export function registerHealthRoutes(app: HttpServer, readiness: Readiness, metrics?: Metrics) {
  // Prometheus scrapes this (unauthenticated, as Unleash's internal-backstage; keep it inside the cluster).
  if (metrics) {
    app.get(
      '/internal-backstage/prometheus',
      {
        schema: {
          summary: 'Prometheus metrics of this process',
          response: { 200: textAnswer('text/plain', "Prometheus' text exposition format") },
        },
      },
      async (_request, reply) =>
        reply
          .type(metrics.registry.contentType)
          .header('cache-control', 'no-store')
          .send(await metrics.registry.metrics()),
    );
  }
  app.get('/health', { schema: { summary: 'Whether the process is alive', response: { 200: Health } } }, async () => ({
    health: 'GOOD' as const,
  }));
  app.get(
    '/ready',
    {
      schema: {
        summary: 'Whether the process can serve: each dependency checked',
        response: { 200: ReadinessAnswer, 503: ReadinessAnswer },
      },
    },
    async (_request, reply) => {
      const { ready, body } = await evaluate(readiness.checks());
      return reply.code(ready ? 200 : 503).send(body);
    },
  );
}

/** Sent by the deployment's ingress (deploy/ingress.nginx.conf): a starting process answers it 421, not 503. */
export const INGRESS_HEADER = 'x-bunting-ingress';

/**
 * While a process waits for its dependencies it cannot serve: /health and every other request answer 503 with
 * Retry-After (421 to the ingress, which then asks another replica) (scripts that wait for /health then call the API must not start early: Unleash listens only once
 * ready), /ready 503 naming what is awaited, until the real server takes the listening socket over (the same
 * socket: were it closed and opened again, connections waiting in it would be cut, and a proxy could not know
 * whether a write it had sent was done). Orchestrators give a starting process time through a startup probe.
 */
export type StartupServer = {
  port: number;
  /** The listening socket, for the real server to listen on (`listen({ handle })`): it is never closed in between. */
  handle: unknown;
  /** After the real server took the socket over: the requests this one still holds are answered, then it is done. */
  handedOver: () => void;
  /** When the start failed: stops listening. */
  close: () => Promise<void>;
};

export function startStartupServer(host: string, port: number, awaiting: () => string | null): Promise<StartupServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      // Not kept open: a connection ends with its answer, and the next one reaches the real server once it is up.
      response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        connection: 'close',
        ...headers,
      });
      response.end(JSON.stringify(body));
    };
    const what = awaiting();
    if (path === '/health') return send(503, { health: 'BAD', starting: true, awaiting: what }, { 'retry-after': '1' });
    if (path === '/ready') return send(503, { health: 'BAD', starting: true, awaiting: what });
    const answer = {
      id: 'starting',
      name: 'ServiceUnavailableError',
      message: `Bunting is starting${what ? ` (waiting for ${what})` : ''}; try again shortly.`,
    };
    // An ingress that names itself tries another replica on 421: nginx passes a write on after a 503 only at the
    // risk of doing it twice, while this answer says it was not done (a rolling upgrade's new replicas start so).
    if (request.headers[INGRESS_HEADER] !== undefined) return send(421, answer, { 'retry-after': '2' });
    send(503, answer, { 'retry-after': '2' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        handle: (server as unknown as { _handle: unknown })._handle,
        // Not server.close(): that would close the socket the real server now listens on. Every answer here ends
        // its connection; one that sends nothing is ended after a moment.
        handedOver: () => void setTimeout(() => server.closeAllConnections(), 1_000).unref(),
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function withTimeout<T>(promise: Promise<T>, milliseconds: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${milliseconds} ms`)), milliseconds);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
