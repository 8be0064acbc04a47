import { z } from 'zod';
import { Tag } from './tags.ts';

/** The spec's closed list of event types. */
export const EVENT_TYPES = [
  'application-created', 'feature-created', 'feature-deleted', 'feature-updated', 'feature-metadata-updated',
  'feature-variants-updated', 'feature-environment-variants-updated', 'feature-project-change', 'feature-archived',
  'feature-revived', 'feature-import', 'feature-tagged', 'feature-tag-import', 'feature-strategy-update',
  'feature-strategy-add', 'feature-strategy-remove', 'feature-type-updated', 'feature-completed',
  'feature-uncompleted', 'strategy-order-changed', 'drop-feature-tags', 'feature-untagged', 'feature-stale-on',
  'feature-stale-off', 'drop-features', 'feature-environment-enabled', 'feature-environment-disabled',
  'strategy-created', 'strategy-deleted', 'strategy-deprecated', 'strategy-reactivated', 'strategy-updated',
  'strategy-import', 'drop-strategies', 'context-field-created', 'context-field-updated', 'context-field-deleted',
  'project-access-added', 'project-access-user-roles-updated', 'project-access-group-roles-updated',
  'project-access-user-roles-deleted', 'project-access-group-roles-deleted', 'project-access-updated',
  'project-created', 'project-updated', 'project-deleted', 'project-archived', 'project-revived', 'project-import',
  'project-user-added', 'project-user-removed', 'project-user-role-changed', 'project-group-role-changed',
  'project-group-added', 'project-group-removed', 'role-created', 'role-updated', 'role-deleted', 'drop-projects',
  'tag-created', 'tag-deleted', 'tag-import', 'drop-tags', 'tag-type-created', 'tag-type-deleted',
  'tag-type-updated', 'tag-type-import', 'drop-tag-types', 'addon-config-created', 'addon-config-updated',
  'addon-config-deleted', 'db-pool-update', 'user-created', 'user-updated', 'user-deleted', 'drop-environments',
  'environment-import', 'environment-created', 'environment-updated', 'environment-deleted', 'segment-created',
  'segment-updated', 'segment-deleted', 'group-created', 'group-updated', 'group-deleted', 'group-user-added',
  'group-user-removed', 'setting-created', 'setting-updated', 'setting-deleted', 'client-metrics',
  'client-register', 'pat-created', 'pat-deleted', 'public-signup-token-created', 'public-signup-token-user-added',
  'public-signup-token-updated', 'change-request-created', 'change-request-discarded', 'change-added',
  'change-discarded', 'change-edited', 'change-request-rejected', 'change-request-approved',
  'change-request-approval-added', 'change-request-cancelled', 'change-request-sent-to-review',
  'change-request-schedule-suspended', 'change-request-applied', 'change-request-scheduled',
  'change-request-scheduled-application-success', 'change-request-scheduled-application-failure',
  'change-request-configuration-updated', 'api-token-created', 'api-token-updated', 'api-token-deleted',
  'feature-favorited', 'feature-unfavorited', 'project-favorited', 'project-unfavorited', 'features-exported',
  'features-imported', 'service-account-created', 'service-account-deleted', 'service-account-updated',
  'feature-potentially-stale-on', 'feature-dependency-added', 'feature-dependency-removed',
  'feature-dependencies-removed', 'banner-created', 'banner-updated', 'banner-deleted',
  'project-environment-added', 'project-environment-removed', 'default-strategy-updated', 'segment-import',
  'signal-endpoint-created', 'signal-endpoint-updated', 'signal-endpoint-deleted', 'signal-endpoint-token-created',
  'signal-endpoint-token-updated', 'signal-endpoint-token-deleted', 'actions-created', 'actions-updated',
  'actions-deleted',
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** Who did something, as events record it. */
export const Actor = z.object({ createdBy: z.string(), createdByUserId: z.number().nullable() });
export type Actor = z.infer<typeof Actor>;

export const SYSTEM_ACTOR: Actor = { createdBy: 'unleash_system_user', createdByUserId: -1337 };
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

export const EventsQuery = z.object({ project: z.string().max(255).optional() });

export const EventSearch = z.object({
  type: z.string().max(255).optional(),
  project: z.string().max(255).optional(),
  feature: z.string().max(255).optional(),
  query: z.string().max(1000).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
});
export type EventSearch = z.infer<typeof EventSearch>;
