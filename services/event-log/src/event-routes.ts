import { z } from 'zod';
import { EventList, EventSearch, EventsQuery, PathName } from '@bunting/contracts';
import { Permission, principalOf, requirePermission, type DatabasePool, type HttpServer } from '@bunting/platform';
import { eventStore } from './event-store.ts';

const RECENT_LIMIT = 100;

export function eventRoutes(app: HttpServer, db: DatabasePool) {
  // Seed endpoint 1: the last 100 events, or every event of one project (none for an unknown project).
  app.get('/api/admin/events', { schema: { querystring: EventsQuery, response: { 200: EventList } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ, { project: request.query.project });
    const { project } = request.query;
    const { events, total } = await eventStore.find(db, { project }, { limit: project === undefined ? RECENT_LIMIT : null, offset: 0 });
    return { version: 1 as const, events, totalEvents: total };
  });

  app.get('/api/admin/events/:featureName', { schema: { params: z.object({ featureName: PathName }) } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const { events, total } = await eventStore.find(db, { feature: request.params.featureName }, { limit: null, offset: 0 });
    return { version: 1, toggleName: request.params.featureName, events, totalEvents: total };
  });

  // Seed endpoint 2 (deprecated): filters are exact and case-sensitive; query is free text.
  app.post('/api/admin/events/search', { schema: { body: EventSearch.optional(), response: { 200: EventList } } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const search = request.body ?? {};
    const { events, total } = await eventStore.find(
      db,
      { type: search.type, project: search.project, feature: search.feature, query: search.query },
      { limit: search.limit ?? 100, offset: search.offset ?? 0 },
    );
    return { version: 1 as const, events, totalEvents: total };
  });

  const SearchQuery = z.object({
    query: z.string().max(1000).optional(),
    feature: z.string().max(255).optional(),
    project: z.string().max(255).optional(),
    type: z.string().max(255).optional(),
    createdBy: z.string().max(255).optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    offset: z.coerce.number().int().min(0).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  });
  app.get('/api/admin/search/events', { schema: { querystring: SearchQuery } }, async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    const { offset, limit, to, ...filter } = request.query;
    const { events, total } = await eventStore.find(
      db,
      { ...filter, to: to ? `${to}T23:59:59.999Z` : undefined },
      { limit: limit ?? 50, offset: offset ?? 0 },
    );
    return { events, total };
  });

  app.get('/api/admin/event-creators', async (request) => {
    requirePermission(principalOf(request), Permission.READ);
    return eventStore.creators(db);
  });
}
