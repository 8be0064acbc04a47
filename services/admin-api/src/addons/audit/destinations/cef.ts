import type { DomainEvent } from '@bunting/contracts';
import { summaryOf } from './destination.ts';

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

/**
 * An event in ArcSight's Common Event Format: the event type is the signature id, the actor `suser`, the time `rt`,
 * the project, environment and flag in custom strings with their labels, the event's id `externalId` (for
 * deduplication), and the data changed as JSON in `cs5` (cut to fit a syslog line).
 */
export function cefOf(event: DomainEvent, version: string): string {
  const custom = (n: number, label: string, value: string | null | undefined): [string, string | null | undefined][] =>
    value === null || value === undefined || value === ''
      ? []
      : [
          [`cs${n}Label`, label],
          [`cs${n}`, value],
        ];
  const fields: [string, string | number | null | undefined][] = [
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
  const ext = fields
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${extension(String(value))}`)
    .join(' ');
  return [
    'CEF:0',
    'Bunting',
    'Bunting',
    header(version),
    header(event.type),
    header(summaryOf(event)),
    String(severityOf(event.type)),
    ext,
  ].join('|');
}
