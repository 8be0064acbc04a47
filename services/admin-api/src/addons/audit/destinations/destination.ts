import type { z } from 'zod';
import type { DomainEvent } from '@bunting/contracts';
import type { ProviderDefinition } from '../../providers/provider.ts';

/** What every record says about where it comes from. */
export type AuditContext = { host: string; version: string };

/**
 * An audit destination: an integration that receives the whole event log in order, in batches, at least once
 * (a delivery that fails is tried again from the same event), instead of one event at a time as chat integrations do.
 */
export type AuditDestination = {
  definition: ProviderDefinition;
  parameters: z.ZodType<Record<string, unknown>>;
  /** The receiver's name in errors ("Splunk HEC answered 503"). */
  service: string;
  /** Delivers a batch in order; throws unless the receiver took all of it. */
  send: (parameters: Record<string, unknown>, events: readonly DomainEvent[], context: AuditContext) => Promise<void>;
};

const TIMEOUT_MS = 10_000;

/** One POST; throws with the receiver's answer unless it is a 2xx. */
export async function post(service: string, url: string, headers: Record<string, string>, body: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new Error(`${service} could not be reached: ${(error as Error).message}`, { cause: error });
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

/** A record as the JSON destinations carry it: the event with its uuid as `id`, which receivers can deduplicate on. */
export function auditRecord(event: DomainEvent) {
  return {
    id: event.uuid,
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
export function summaryOf(event: DomainEvent): string {
  const where = [
    event.featureName ? `flag ${event.featureName}` : null,
    event.project ? `project ${event.project}` : null,
    event.environment ? `environment ${event.environment}` : null,
  ].filter(Boolean);
  return `${event.type} by ${event.createdBy}${where.length > 0 ? ` (${where.join(', ')})` : ''}`;
}
