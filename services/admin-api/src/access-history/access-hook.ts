import type { FastifyRequest } from 'fastify';
import type { AccessAction, AccessMethod } from '@bunting/contracts';
import type { DatabasePool, HttpServer, Logger } from '@bunting/platform';
import { clientOf, recordAccess } from './access-recorder.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route signs someone in or grants a credential: each answer is an entry of the sign-in history. */
    access?: { method: AccessMethod; action: AccessAction };
  }
}

type Who = { userId?: number | null; name?: string | null; detail?: string | null };
const noted = new WeakMap<FastifyRequest, Who>();
const failures = new WeakMap<FastifyRequest, string>();

/**
 * A route says whom a request was about as soon as it knows (the typed name first, the user once found), and what
 * it granted or why it refused when its answer does not say.
 */
export function noteWho(request: FastifyRequest, who: Who): void {
  noted.set(request, { ...noted.get(request), ...who });
}

/**
 * Records the outcome of every request to a route that declares `config.access`: a 2xx or 3xx answer is a success,
 * anything else a failure with the error's message as the reason. One hook sees every way a sign-in can end,
 * including the errors thrown deep inside it.
 */
export function recordAccessAnswers(app: HttpServer, deps: { db: DatabasePool; log: Logger }): void {
  app.addHook('onError', async (request, _reply, error) => {
    if (request.routeOptions.config.access) failures.set(request, error.message);
  });
  // Before the answer goes out (onSend, not onResponse): whoever reads the history after an answer finds it there.
  app.addHook('onSend', async (request, reply, payload) => {
    const access = request.routeOptions.config.access;
    if (!access) return payload;
    const who = noted.get(request) ?? {};
    const success = reply.statusCode < 400;
    await recordAccess(deps.db, deps.log, clientOf(request), {
      ...access,
      outcome: success ? 'success' : 'failure',
      userId: who.userId ?? request.principal?.userId ?? null,
      name: who.name ?? null,
      detail: who.detail ?? (success ? null : (failures.get(request) ?? `answered ${reply.statusCode}`)),
    });
    return payload;
  });
}
