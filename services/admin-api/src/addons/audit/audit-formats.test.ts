import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EventType, type AccessEntry, type DomainEvent } from '@bunting/contracts';
import { auditWants } from './audit-filter.ts';
import { cefOf } from './destinations/cef.ts';
import { batches } from './destinations/destination.ts';
import {
  ACTIVITY_NAMES,
  activityOf,
  entityTypeOf,
  ocsfAccess,
  ocsfEntityManagement,
} from './destinations/ocsf-mapping.ts';
import { signatureHeaders } from './destinations/signed-webhook.ts';
import { syslogFrame } from './destinations/syslog-frame.ts';

const event = (overrides: Partial<DomainEvent> = {}): DomainEvent => ({
  uuid: '6f1c2a3e-8b7d-4c5e-9f0a-1b2c3d4e5f60',
  type: 'feature-created',
  createdAt: '2026-12-04T10:00:00.000Z',
  createdBy: 'ann',
  createdByUserId: 7,
  environment: null,
  project: 'shop',
  featureName: 'checkout',
  data: { name: 'checkout' },
  preData: null,
  tags: [],
  ...overrides,
});

describe('CEF', () => {
  it('escapes pipes in the header and equals signs, backslashes and line breaks in extensions', () => {
    const line = cefOf({ kind: 'event', event: event({ createdBy: 'a|b=c\\d', data: { note: 'x\ny' } }) }, '1.0|x');
    expect(line.startsWith('CEF:0|Bunting|Bunting|1.0\\|x|feature-created|feature-created by a\\|b=c\\\\d')).toBe(true);
    expect(line).toContain('suser=a|b\\=c\\\\d');
    expect(line).toContain('cs5={"note":"x\\\\ny"}');
    expect(line).not.toContain('\n');
    // Labels only beside values: no environment here.
    expect(line).not.toContain('cs2Label');
    expect(line).toContain('externalId=6f1c2a3e-8b7d-4c5e-9f0a-1b2c3d4e5f60');
  });

  it('weighs deletions above changes', () => {
    const severity = (type: EventType) => Number(cefOf({ kind: 'event', event: event({ type }) }, '1').split('|')[6]);
    expect(severity('feature-deleted')).toBeGreaterThan(severity('feature-created'));
    expect(severity('api-token-created')).toBeGreaterThan(severity('feature-created'));
  });
});

describe('syslog frames', () => {
  it('count octets, not characters, and keep header fields printable', () => {
    const frame = syslogFrame({
      time: '2026-12-04T10:00:00.000Z',
      host: 'flags host',
      appName: 'bunting',
      msgId: 'audit',
      id: 'x"]\\',
      type: 'feature-created',
      severity: 6,
      text: 'ünïcödé',
    });
    const text = frame.toString('utf8');
    const [count, ...rest] = text.split(' ');
    expect(Number(count)).toBe(Buffer.byteLength(rest.join(' ')));
    expect(rest.join(' ')).toBe(
      '<110>1 2026-12-04T10:00:00.000Z flags_host bunting - audit [bunting@32473 id="x\\"\\]\\\\" type="feature-created"] ünïcödé',
    );
  });
});

describe('the signed webhook', () => {
  it('signs the timestamp with the body, and the body alone as GitHub does', () => {
    const headers = signatureHeaders('secret-of-sixteen', '{"events":[]}', 1_800_000_000);
    expect(headers['x-bunting-timestamp']).toBe('1800000000');
    const hmac = (text: string) => createHmac('sha256', 'secret-of-sixteen').update(text).digest('hex');
    expect(headers['x-bunting-signature']).toBe(`sha256=${hmac('1800000000.{"events":[]}')}`);
    expect(headers['x-hub-signature-256']).toBe(`sha256=${hmac('{"events":[]}')}`);
  });
});

describe('batches', () => {
  it('cut by count and by size, keeping the order, and never leave a record out', () => {
    const records = ['aaaa', 'bb', 'cccccc', 'd', 'ee'];
    expect(batches(records, (one) => one.length, 2, 100)).toEqual([['aaaa', 'bb'], ['cccccc', 'd'], ['ee']]);
    expect(batches(records, (one) => one.length, 10, 7)).toEqual([['aaaa', 'bb'], ['cccccc', 'd'], ['ee']]);
    // One record larger than the limit goes alone.
    expect(batches(['x'.repeat(20), 'y'], (one) => one.length, 10, 5)).toEqual([['x'.repeat(20)], ['y']]);
  });
});

describe('OCSF mapping', () => {
  it('gives every event type an activity and an entity kind', () => {
    for (const type of EventType.options) {
      expect([1, 2, 3, 4], type).toContain(activityOf(type));
      expect(entityTypeOf(type), type).toMatch(/^[a-z-]+$/);
    }
    expect(activityOf('feature-archived')).toBe(4);
    expect(activityOf('drop-features')).toBe(4);
    expect(activityOf('features-exported')).toBe(2);
    expect(activityOf('feature-environment-enabled')).toBe(3);
    expect(entityTypeOf('drop-strategies')).toBe('strategy');
    expect(entityTypeOf('project-access-added')).toBe('project-access');
  });

  it('is what docs/audit-streaming.md says, event type by event type', () => {
    const doc = readFileSync(new URL('../../../../../docs/audit-streaming.md', import.meta.url), 'utf8');
    const rows = new Map(
      [...doc.matchAll(/^\| `([a-z-]+)` +\| 3004 +\| (\w+) \((\d)\) +\| ([a-z-]+) +\|$/gm)].map((match) => [
        match[1],
        [match[2], Number(match[3]), match[4]],
      ]),
    );
    expect([...rows.keys()].sort()).toEqual([...EventType.options].sort());
    for (const type of EventType.options)
      expect(rows.get(type), type).toEqual([ACTIVITY_NAMES[activityOf(type)], activityOf(type), entityTypeOf(type)]);
  });

  it('names the entity, the actor and the agent, and keeps Bunting’s own fields unmapped', () => {
    const record = ocsfEntityManagement(event({ createdVia: 'claude-code/2.1' }), { host: 'flags', version: '1.0.0' });
    expect(record).toMatchObject({
      class_uid: 3004,
      activity_id: 1,
      type_uid: 300401,
      time: Date.parse('2026-12-04T10:00:00.000Z'),
      entity: { type: 'feature', name: 'checkout' },
      actor: { user: { name: 'ann', uid: '7' }, app_name: 'claude-code/2.1' },
      metadata: { uid: event().uuid, event_code: 'feature-created' },
      unmapped: { project: 'shop', feature_name: 'checkout' },
    });
  });
});

describe('audit filters', () => {
  it('take everything when they name nothing, and filter on what they name', () => {
    const all = { events: [], projects: [], environments: [] };
    expect(auditWants(all, event())).toBe(true);
    expect(auditWants({ ...all, projects: ['shop'] }, event())).toBe(true);
    expect(auditWants({ ...all, projects: ['other'] }, event())).toBe(false);
    expect(auditWants({ ...all, events: ['feature-archived'] }, event())).toBe(false);
    expect(auditWants({ ...all, environments: ['production'] }, event({ environment: 'production' }))).toBe(true);
    // An event outside any project is not in a project filter's list.
    expect(auditWants({ ...all, projects: ['shop'] }, event({ project: null }))).toBe(false);
  });
});

const access = (overrides: Partial<AccessEntry> = {}): AccessEntry => ({
  id: 3,
  uuid: '0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70',
  at: '2026-12-04T10:00:00.000Z',
  userId: null,
  name: 'mallory',
  method: 'password',
  action: 'sign-in',
  outcome: 'failure',
  detail: 'Wrong password or username.',
  address: '203.0.113.9',
  userAgent: 'curl/8.5',
  ...overrides,
});

describe('sign-in history records', () => {
  it('are CEF with the client and the outcome, weighed above a change when refused', () => {
    const line = cefOf({ kind: 'access', access: access() }, '1');
    expect(line.split('|').slice(4, 7)).toEqual([
      'access:sign-in',
      'sign-in (password) by mallory: failure (Wrong password or username.)',
      '7',
    ]);
    expect(line).toContain('src=203.0.113.9');
    expect(line).toContain('requestClientApplication=curl/8.5');
    expect(line).toContain('outcome=failure');
  });

  it('are OCSF Authentication, or Account Change for a deactivation', () => {
    const logon = ocsfAccess(access(), { host: 'flags', version: '1' });
    expect(logon).toMatchObject({
      class_uid: 3002,
      activity_id: 1,
      type_uid: 300201,
      status_id: 2,
      user: { name: 'mallory' },
      src_endpoint: { ip: '203.0.113.9' },
    });
    const disabled = ocsfAccess(access({ method: 'scim', action: 'deactivated', outcome: 'success', userId: 4 }), {
      host: 'flags',
      version: '1',
    });
    expect(disabled).toMatchObject({ class_uid: 3001, activity_id: 5, type_uid: 300105, status_id: 1 });
    expect(ocsfAccess(access({ action: 'created', method: 'api-token' }), { host: 'h', version: '1' })).toMatchObject({
      class_uid: 3002,
      activity_id: 3,
    });
  });
});
