import { z } from 'zod';
import { Tag } from './tags.ts';

import { EVENT_TYPES } from './event-types.ts';

export { EVENT_TYPES };
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** Who did something, as events record it. */
export const Actor = z.object({
  createdBy: z.string(),
  createdByUserId: z.number().nullable(),
  /** What the change came through when not the API directly: an agent's MCP client ("MCP: claude-code 2.1"). */
  createdVia: z.string().max(200).nullable().optional(),
});
export type Actor = z.infer<typeof Actor>;

export const SYSTEM_ACTOR = { createdBy: 'unleash_system_user', createdByUserId: -1337 } as const satisfies Actor;
/** The user id Unleash records for changes made with an admin API token. */
export const ADMIN_TOKEN_USER_ID = -42;

/** A domain event as it travels on the stream: the spec's Event without the id, plus its uuid. */
export const DomainEvent = z.object({
  uuid: z.uuid(),
  type: EventType,
  createdAt: z.string(),
  createdBy: z.string(),
  createdByUserId: z.number().nullable(),
  environment: z.string().nullable(),
  project: z.string().nullable(),
  featureName: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  preData: z.record(z.string(), z.unknown()).nullable(),
  tags: z.array(Tag).nullable(),
  groupId: z.string().nullable().optional(),
  /** Set only when the change came through an agent's MCP client, which it names (Unleash records it as the user agent). */
  createdVia: z.string().nullable().optional(),
});
export type DomainEvent = z.infer<typeof DomainEvent>;

export const Event = DomainEvent.omit({ uuid: true, groupId: true }).extend({ id: z.number().int().min(1) });
export type Event = z.infer<typeof Event>;

export const EventList = z.object({
  version: z.literal(1),
  events: z.array(Event),
  totalEvents: z.number().int(),
});
export type EventList = z.infer<typeof EventList>;

export const EventsQuery = z.object({
  project: z.string().max(255).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** A list filter of Unleash's search routes: `IS:value` or `IS_ANY_OF:a,b,c` (a bare value means IS). */
export const SearchListFilter = z
  .string()
  .max(2000)
  .transform((filter) => {
    const match = /^(IS|IS_ANY_OF):(.*)$/.exec(filter);
    const list = match ? match[2]! : filter;
    const values = (match?.[1] === 'IS' ? [list] : list.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== '');
    return values;
  })
  .refine((values) => values.length > 0, 'names no value');

/** A date filter of Unleash's search routes: `IS:2024-01-31` (a bare date means IS). */
export const SearchDateFilter = z
  .string()
  .regex(/^(?:IS:)?\d{4}-\d{2}-\d{2}$/, 'must be IS:<yyyy-mm-dd>')
  .transform((filter) => filter.replace(/^IS:/, ''))
  .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), 'is not a date');

/** GET /api/admin/search/events: Unleash's operators on every filter, paged. */
export const EventSearchQuery = z.object({
  query: z.string().max(1000).optional(),
  id: SearchListFilter.optional(),
  groupId: SearchListFilter.optional(),
  feature: SearchListFilter.optional(),
  project: SearchListFilter.optional(),
  type: SearchListFilter.optional(),
  createdBy: SearchListFilter.optional(),
  environment: SearchListFilter.optional(),
  from: SearchDateFilter.optional(),
  to: SearchDateFilter.optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type EventSearchQuery = z.infer<typeof EventSearchQuery>;

export const EventSearch = z.object({
  type: z.string().max(255).optional(),
  project: z.string().max(255).optional(),
  feature: z.string().max(255).optional(),
  query: z.string().max(1000).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
});
export type EventSearch = z.infer<typeof EventSearch>;

// Answers: what the routes of this resource send.

/** GET /api/admin/events/:featureName */
export const FeatureEventList = EventList.extend({ version: z.number(), toggleName: z.string() });

/** GET /api/admin/search/events: one page of events, newest first, and how many match in all. */
export const EventSearchAnswer = z.object({ events: z.array(Event), total: z.number() });
export type EventSearchResult = z.infer<typeof EventSearchAnswer>;

/** GET /api/admin/event-creators */
export const EventCreators = z.array(z.object({ id: z.number().nullable(), name: z.string() })).readonly();
