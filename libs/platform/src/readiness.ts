import type { HttpServer } from './http-server.ts';

export type ReadinessCheck = { name: string; check: () => Promise<void> };

/** /health says the process is alive; /ready runs every dependency check the mounted services registered. */
export function registerHealthRoutes(app: HttpServer, checks: ReadinessCheck[]) {
  app.get('/health', async () => ({ health: 'GOOD' }));
  app.get('/ready', async (_request, reply) => {
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), 2000);
          return { name, ok: true };
        } catch (error) {
          return { name, ok: false, error: (error as Error).message };
        }
      }),
    );
    const ready = results.every((result) => result.ok);
    return reply.code(ready ? 200 : 503).send({ health: ready ? 'GOOD' : 'BAD', checks: results });
  });
}

function withTimeout<T>(promise: Promise<T>, milliseconds: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${milliseconds} ms`)), milliseconds);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); },
    );
  });
}
