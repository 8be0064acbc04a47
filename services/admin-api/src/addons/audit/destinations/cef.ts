import type { AccessEntry, DomainEvent } from '@bunting/contracts';
import { summaryOf, type AuditItem } from './destination.ts';

/** CEF header fields escape backslashes and pipes. */
const header = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
/** CEF extension values escape backslashes and equals signs, and write line breaks as \n. */
const extension = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/=/g, '\\=')
    .replace(/\r\n|\r|\n/g, '\\n');

/** Deleting and revoking weigh more in a SIEM's triage than reading or changing. */
function severityOf(type: string): number {
  if (/-(deleted|removed|archived|revoked)$|^drop-/.test(type)) return 6;
  if (/^(api-token|pat|service-account|role|user|group|project-access|setting)/.test(type)) return 5;
  return 3;
}

/** A custom string with its label, or nothing when there is no value. */
const custom = (n: number, label: string, value: string | null | undefined): [string, string | null | undefined][] =>
  value === null || value === undefined || value === ''
    ? []
    : [
        [`cs${n}Label`, label],
        [`cs${n}`, value],
      ];

/** An event's fields. */
function eventFields(event: DomainEvent): [string, string | number | null | undefined][] {
  return [
    ['rt', Date.parse(event.createdAt)],
    ['externalId', event.uuid],
    ['act', event.type],
    ['suser', event.createdBy],
    ['suid', event.createdByUserId],
    ...custom(1, 'project', event.project),
    ...custom(2, 'environment', event.environment),
    ...custom(3, 'flag', event.featureName),
    ...custom(4, 'createdVia', event.createdVia),
    ...custom(5, 'data', event.data ? JSON.stringify(event.data).slice(0, 4000) : null),
    ['outcome', 'success'],
  ];
}

/** Sign-ins: the person (`suser`, `suid`), where from (`src`, `requestClientApplication`), how, and the outcome. */
function accessFields(access: AccessEntry): [string, string | number | null | undefined][] {
  return [
    ['rt', Date.parse(access.at)],
    ['externalId', access.uuid],
    ['act', access.action],
    ['suser', access.name],
    ['suid', access.userId],
    ['src', access.address],
    ['requestClientApplication', access.userAgent],
    ['cs1Label', 'method'],
    ['cs1', access.method],
    ...(access.detail ? ([['reason', access.detail]] as [string, string][]) : []),
    ['outcome', access.outcome],
  ];
}

/**
 * A record in ArcSight's Common Event Format. An event: its type is the signature id, the actor `suser`, the time
 * `rt`, the project, environment and flag in custom strings with their labels, the event's id `externalId` (for
 * deduplication) and the data changed as JSON in `cs5` (cut to fit a syslog line). A sign-in: `access:<action>` as
 * signature id, with the client's address and user agent.
 */
export function cefOf(item: AuditItem, version: string): string {
  const fields = item.kind === 'event' ? eventFields(item.event) : accessFields(item.access);
  const ext = fields
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${extension(String(value))}`)
    .join(' ');
  const signature = item.kind === 'event' ? item.event.type : `access:${item.access.action}`;
  const severity = item.kind === 'event' ? severityOf(item.event.type) : item.access.outcome === 'failure' ? 7 : 3;
  return [
    'CEF:0',
    'Bunting',
    'Bunting',
    header(version),
    header(signature),
    header(summaryOf(item)),
    String(severity),
    ext,
  ].join('|');
}
