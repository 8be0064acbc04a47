import type { z } from 'zod';
import type { AccessEntry, DomainEvent } from '@bunting/contracts';
import type { ProviderDefinition, ProviderParameter } from '../../providers/provider.ts';

/** What every record says about where it comes from. */
export type AuditContext = { host: string; version: string };

/** What an audit destination receives: an event of the log, or an entry of the sign-in history. */
export type AuditItem = { kind: 'event'; event: DomainEvent } | { kind: 'access'; access: AccessEntry };

/**
 * An audit destination: an integration that receives the whole event log (and the sign-in history) in order, in
 * batches, at least once (a delivery that fails is tried again from the same record), instead of one event at a time
 * as chat integrations do.
 */
export type AuditDestination = {
  definition: ProviderDefinition;
  parameters: z.ZodType<Record<string, unknown>>;
  /** The receiver's name in errors ("Splunk HEC answered 503"). */
  service: string;
  /** Delivers a batch in order; throws unless the receiver took all of it. */
  send: (parameters: Record<string, unknown>, items: readonly AuditItem[], context: AuditContext) => Promise<void>;
};

const TIMEOUT_MS = 10_000;

/** One POST; throws with the receiver's answer unless it is a 2xx. */
export async function post(service: string, url: string, headers: Record<string, string>, body: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, a certificate, a timeout).
    const cause = (error as Error & { cause?: Error }).cause?.message;
    throw new Error(`${service} could not be reached: ${cause ?? (error as Error).message}`, { cause: error });
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new Error(`${service} answered ${response.status}: ${text.slice(0, 200)}`);
}

/** Splits records into batches of at most `maxCount` whose serialised forms stay under `maxBytes` together. */
export function batches<T>(records: readonly T[], size: (record: T) => number, maxCount: number, maxBytes: number) {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const record of records) {
    const length = size(record);
    if (current.length > 0 && (current.length >= maxCount || bytes + length > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(record);
    bytes += length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** A record's id (the event's or the entry's uuid), which receivers can deduplicate on, and its time. */
export const idOf = (item: AuditItem) => (item.kind === 'event' ? item.event.uuid : item.access.uuid);
export const timeOf = (item: AuditItem) => (item.kind === 'event' ? item.event.createdAt : item.access.at);

/** A record as the JSON destinations carry it: `kind` says which of the two it is, `id` is its uuid. */
export function auditRecord(item: AuditItem) {
  if (item.kind === 'access') {
    const { access } = item;
    return {
      id: access.uuid,
      kind: 'access' as const,
      createdAt: access.at,
      method: access.method,
      action: access.action,
      outcome: access.outcome,
      userId: access.userId,
      name: access.name,
      detail: access.detail,
      address: access.address,
      userAgent: access.userAgent,
    };
  }
  const { event } = item;
  return {
    id: event.uuid,
    kind: 'event' as const,
    type: event.type,
    createdAt: event.createdAt,
    createdBy: event.createdBy,
    createdByUserId: event.createdByUserId,
    createdVia: event.createdVia ?? null,
    project: event.project,
    environment: event.environment,
    featureName: event.featureName,
    data: event.data,
    preData: event.preData,
    tags: event.tags,
  };
}

/** A short sentence for receivers that show one line per record. */
export function summaryOf(item: AuditItem): string {
  if (item.kind === 'access') {
    const { access } = item;
    const who = access.name ?? (access.userId === null ? 'someone' : `user ${access.userId}`);
    return `${access.action} (${access.method}) by ${who}: ${access.outcome}${access.detail ? ` (${access.detail})` : ''}`;
  }
  const { event } = item;
  const where = [
    event.featureName ? `flag ${event.featureName}` : null,
    event.project ? `project ${event.project}` : null,
    event.environment ? `environment ${event.environment}` : null,
  ].filter(Boolean);
  return `${event.type} by ${event.createdBy}${where.length > 0 ? ` (${where.join(', ')})` : ''}`;
}

/** The parameter every audit destination has: whether it also receives the sign-in history. */
export const SIGN_INS: ProviderParameter = {
  name: 'signIns',
  displayName: 'Sign-in history',
  placeholder: 'true',
  type: 'text',
  required: false,
  sensitive: false,
  description: 'true (the default) to send sign-in attempts and credentials granted too; false for events only.',
};
