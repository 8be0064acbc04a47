import { z } from 'zod';
import {
  FeatureEventList,
  EventSearchAnswer,
  EventCreators,
  EventList,
  EventSearch,
  EventSearchQuery,
  EventsQuery,
  PathName,
} from '@bunting/contracts';
import {
  Permission,
  ValidationError,
  principalOf,
  requirePermission,
  type DatabasePool,
  type HttpServer,
} from '@bunting/platform';
import { eventStore } from './event-store.ts';

const RECENT_LIMIT = 100;
const listOf = (value: string | undefined) => (value === undefined ? undefined : [value]);

export function eventRoutes(app: HttpServer, db: DatabasePool) {
  // The last 100 events, or every event of one project (none for an unknown project).
  app.get(
    '/api/admin/events',
    {
      schema: {
        summary: 'The latest events, optionally of one project (deprecated: use the event search)',
        querystring: EventsQuery,
        response: { 200: EventList },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ, { project: request.query.project });
      const { project, limit, offset } = request.query;
      const { events, total } = await eventStore.find(
        db,
        { project: project === undefined ? undefined : [project] },
        {
          limit: limit ?? (project === undefined ? RECENT_LIMIT : null),
          offset: offset ?? 0,
        },
      );
      return { version: 1 as const, events, totalEvents: total };
    },
  );

  app.get(
    '/api/admin/events/:featureName',
    {
      schema: {
        summary: "A flag's events",
        params: z.object({ featureName: PathName }),
        response: { 200: FeatureEventList },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const { events, total } = await eventStore.find(
        db,
        { feature: [request.params.featureName] },
        { limit: null, offset: 0 },
      );
      return { version: 1, toggleName: request.params.featureName, events, totalEvents: total };
    },
  );

  // Deprecated search: filters are exact and case-sensitive; query is free text.
  app.post(
    '/api/admin/events/search',
    {
      schema: {
        summary: 'Search events by text, type, project, flag, environment and creator (deprecated)',
        body: EventSearch.optional(),
        response: { 200: EventList },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const search = request.body ?? {};
      const { events, total } = await eventStore.find(
        db,
        {
          type: listOf(search.type),
          project: listOf(search.project),
          feature: listOf(search.feature),
          query: search.query,
        },
        { limit: search.limit ?? 100, offset: search.offset ?? 0 },
      );
      return { version: 1 as const, events, totalEvents: total };
    },
  );

  // Unleash's operators (IS:, IS_ANY_OF:) on every filter; the dates are days, both included.
  app.get(
    '/api/admin/search/events',
    {
      schema: {
        summary: "Search the event log with Unleash's filter operators, paged",
        querystring: EventSearchQuery,
        response: { 200: EventSearchAnswer },
      },
      config: { etag: true },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const { offset, limit, from, to, id, ...filter } = request.query;
      const ids = id?.map(Number);
      if (ids?.some((value) => !Number.isSafeInteger(value)))
        throw ValidationError.field('id', 'must name event ids (numbers)');
      const { events, total } = await eventStore.find(
        db,
        {
          ...filter,
          id: ids,
          from: from ? `${from}T00:00:00.000Z` : undefined,
          to: to ? `${to}T23:59:59.999Z` : undefined,
        },
        { limit: limit ?? 50, offset: offset ?? 0 },
      );
      return { events, total };
    },
  );

  app.get(
    '/api/admin/event-creators',
    { schema: { summary: 'Who has made changes', response: { 200: EventCreators } } },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      return eventStore.creators(db);
    },
  );
}
