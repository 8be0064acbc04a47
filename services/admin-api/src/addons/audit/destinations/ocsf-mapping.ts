import type { AccessEntry, DomainEvent, EventType } from '@bunting/contracts';
import type { AuditContext, AuditItem } from './destination.ts';

/** The OCSF schema version the records follow. */
export const OCSF_VERSION = '1.3.0';

/** OCSF's Entity Management activities (class 3004). */
const ACTIVITY = { create: 1, read: 2, update: 3, delete: 4 } as const;
export const ACTIVITY_NAMES: Record<number, string> = { 1: 'Create', 2: 'Read', 3: 'Update', 4: 'Delete' };

/** The kind of thing an event is about, longest prefix first: `feature-strategy-add` changes a feature. */
const ENTITY_PREFIXES = [
  'public-signup-token',
  'signal-endpoint-token',
  'signal-endpoint',
  'service-account',
  'change-request',
  'default-strategy',
  'context-field',
  'project-access',
  'addon-config',
  'api-token',
  'tag-type',
  'db-pool',
  'application',
  'environment',
  'features',
  'feature',
  'strategy',
  'project',
  'segment',
  'setting',
  'actions',
  'banner',
  'client',
  'change',
  'group',
  'role',
  'user',
  'tag',
  'pat',
];

/** Plural kinds (drop-strategies, features-exported, actions-created) named as one of them. */
const SINGULAR: Record<string, string> = {
  features: 'feature',
  'feature-tags': 'feature',
  strategies: 'strategy',
  projects: 'project',
  tags: 'tag',
  'tag-types': 'tag-type',
  environments: 'environment',
  actions: 'action',
};

export function entityTypeOf(type: EventType): string {
  // drop-features and its kind empty a whole table.
  const subject = type.startsWith('drop-') ? type.slice('drop-'.length) : type;
  if (SINGULAR[subject]) return SINGULAR[subject];
  const prefix = ENTITY_PREFIXES.find((one) => subject === one || subject.startsWith(`${one}-`));
  const kind = prefix ?? subject.split('-')[0]!;
  return SINGULAR[kind] ?? kind;
}

const CREATE = /-(created|added|add|import|imported|revived|register)$/;
const DELETE = /-(deleted|removed|remove|archived|discarded|dependencies-removed)$/;
const READ = /-(exported|metrics)$/;

/** The activity an event type stands for, from what it names last (`-created`, `-updated`, `-deleted`, …). */
export function activityOf(type: EventType): number {
  if (type.startsWith('drop-')) return ACTIVITY.delete;
  if (CREATE.test(type)) return ACTIVITY.create;
  if (DELETE.test(type)) return ACTIVITY.delete;
  if (READ.test(type)) return ACTIVITY.read;
  // Everything else changes something that stays: updated, enabled, tagged, approved, applied, favorited, ….
  return ACTIVITY.update;
}

function entityOf(event: DomainEvent) {
  const type = entityTypeOf(event.type);
  const data = (event.data ?? event.preData ?? {}) as Record<string, unknown>;
  const named = (...keys: string[]) => keys.map((key) => data[key]).find((value) => typeof value === 'string');
  const name =
    event.featureName ??
    (named('name', 'title', 'username', 'email', 'tokenName', 'description') as string | undefined) ??
    event.project ??
    type;
  const id = data.id ?? data.secret ?? null;
  return {
    type,
    name,
    ...(typeof id === 'string' || typeof id === 'number' ? { uid: String(id) } : {}),
  };
}

/**
 * An event as OCSF's Entity Management class (3004, category Identity & Access Management): who changed which
 * entity how. Bunting's own fields (project, environment, the data before and after) go under `unmapped`.
 */
export function ocsfEntityManagement(event: DomainEvent, context: { host: string; version: string }) {
  const activity = activityOf(event.type);
  const time = Date.parse(event.createdAt);
  return {
    class_uid: 3004,
    class_name: 'Entity Management',
    category_uid: 3,
    category_name: 'Identity & Access Management',
    activity_id: activity,
    activity_name: ACTIVITY_NAMES[activity],
    type_uid: 3004 * 100 + activity,
    type_name: `Entity Management: ${ACTIVITY_NAMES[activity]}`,
    severity_id: 1,
    severity: 'Informational',
    status_id: 1,
    status: 'Success',
    time,
    message: event.type,
    metadata: {
      version: OCSF_VERSION,
      uid: event.uuid,
      event_code: event.type,
      original_time: event.createdAt,
      product: { name: 'Bunting', vendor_name: 'Bunting', version: context.version },
      log_provider: context.host,
    },
    actor: {
      user: {
        name: event.createdBy,
        ...(event.createdByUserId === null ? {} : { uid: String(event.createdByUserId) }),
      },
      ...(event.createdVia ? { app_name: event.createdVia } : {}),
    },
    entity: entityOf(event),
    unmapped: {
      project: event.project,
      environment: event.environment,
      feature_name: event.featureName,
      data: event.data,
      pre_data: event.preData,
      tags: event.tags,
    },
  };
}

function base(context: AuditContext, uid: string, code: string, original: string) {
  return {
    severity_id: 1,
    severity: 'Informational',
    metadata: {
      version: OCSF_VERSION,
      uid,
      event_code: code,
      original_time: original,
      product: { name: 'Bunting', vendor_name: 'Bunting', version: context.version },
      log_provider: context.host,
    },
  };
}

/**
 * A sign-in history entry: a sign-in, a revoked token used, or a credential issued is OCSF's Authentication class
 * (3002: Logon, or Authentication Ticket for a credential); an account a SCIM client deactivated is Account Change
 * (3001: Disable).
 */
export function ocsfAccess(access: AccessEntry, context: AuditContext) {
  const deactivated = access.action === 'deactivated';
  const [classUid, className] = deactivated ? [3001, 'Account Change'] : [3002, 'Authentication'];
  const [activity, activityName] = deactivated
    ? [5, 'Disable']
    : access.action === 'created' || access.action === 'granted'
      ? [3, 'Authentication Ticket']
      : [1, 'Logon'];
  const success = access.outcome === 'success';
  const user = {
    ...(access.name ? { name: access.name } : {}),
    ...(access.userId === null ? {} : { uid: String(access.userId) }),
  };
  return {
    class_uid: classUid,
    class_name: className,
    category_uid: 3,
    category_name: 'Identity & Access Management',
    activity_id: activity,
    activity_name: activityName,
    type_uid: classUid * 100 + activity,
    type_name: `${className}: ${activityName}`,
    ...base(context, access.uuid, `${access.method}:${access.action}`, access.at),
    status_id: success ? 1 : 2,
    status: success ? 'Success' : 'Failure',
    ...(access.detail ? { status_detail: access.detail } : {}),
    time: Date.parse(access.at),
    message: `${access.action} (${access.method}): ${access.outcome}`,
    user: Object.keys(user).length > 0 ? user : { name: 'unknown' },
    ...(deactivated
      ? {}
      : {
          auth_protocol:
            access.method === 'saml'
              ? 'SAML'
              : access.method === 'oidc' || access.method === 'oauth'
                ? 'OAUTH 2.0'
                : 'Other',
        }),
    ...(access.address || access.userAgent
      ? {
          src_endpoint: access.address ? { ip: access.address } : {},
          http_request: access.userAgent ? { user_agent: access.userAgent } : {},
        }
      : {}),
    unmapped: { method: access.method, action: access.action },
  };
}

/** A record in the OCSF class that fits it. */
export function ocsfOf(item: AuditItem, context: AuditContext) {
  return item.kind === 'event' ? ocsfEntityManagement(item.event, context) : ocsfAccess(item.access, context);
}
