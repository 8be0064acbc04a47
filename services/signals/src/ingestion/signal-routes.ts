import { z } from 'zod';
import { EndpointSignals, NumericId, SignalList } from '@bunting/contracts';
import { NotFoundError, Permission, principalOf, requirePermission, type HttpServer } from '@bunting/platform';
import type { SignalsDeps } from '../signals-deps.ts';
import { endpointReadModel } from '../endpoints/endpoint-read-model.ts';
import { signalStore } from './signal-store.ts';

const Limit = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });

/** The signals received, newest first: of one endpoint, or of all. Reading them needs ADMIN, as managing endpoints does. */
export function signalRoutes(app: HttpServer, { db }: Pick<SignalsDeps, 'db'>) {
  app.get(
    '/api/admin/signal-endpoints/:id/signals',
    {
      schema: {
        summary: 'The signals an endpoint received, newest first',
        params: z.object({ id: NumericId }),
        querystring: Limit,
        response: { 200: EndpointSignals },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.ADMIN);
      if (!(await endpointReadModel.exists(db, request.params.id)))
        throw new NotFoundError(`Could not find signal endpoint ${request.params.id}`);
      return { signalEndpointSignals: await signalStore.recent(db, request.params.id, request.query.limit) };
    },
  );
  app.get(
    '/api/admin/signals',
    {
      schema: {
        summary: 'The signals every endpoint received, newest first',
        querystring: Limit,
        response: { 200: SignalList },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.ADMIN);
      return { signals: await signalStore.recent(db, null, request.query.limit) };
    },
  );
}
