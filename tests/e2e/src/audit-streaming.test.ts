import { createHmac } from 'node:crypto';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  loginAs,
  startRsyslogPeer,
  startTestStack,
  type RsyslogPeer,
  type TestStack,
} from '@bunting/test-stack';
import { startAuditReceiver, type AuditReceiver } from './audit-receiver.ts';
import { ocsfEntityManagementSchema } from './ocsf-schema.ts';

/**
 * The event log streamed to security teams' receivers: Splunk's HEC, Datadog Logs, a TLS syslog collector (Debian's
 * rsyslog), an OCSF endpoint and a signed webhook, each with its own filter; in order, at least once, through a
 * receiver that fails, goes away and answers slowly.
 */
let stack: TestStack;
let syslog: RsyslogPeer;
const receivers = {} as Record<'splunk' | 'datadog' | 'ocsf' | 'webhook', AuditReceiver>;
const ids = {} as Record<'splunk' | 'datadog' | 'ocsf' | 'webhook' | 'syslog', number>;
const SECRET = 'a-webhook-secret-of-some-length';
const HEC_TOKEN = 'hec-token-0f3a';
const DD_KEY = 'dd-api-key-77';

type AuditRow = { id: string; type: string; featureName: string | null; project: string | null };

/** What each receiver got, as records in the order received (the same shape whatever the format). */
const got = {
  splunk: () =>
    receivers.splunk.received.flatMap((request) =>
      request.body.split('\n').map((line) => (JSON.parse(line) as { event: AuditRow }).event),
    ),
  datadog: () =>
    receivers.datadog.received.flatMap((request) =>
      (JSON.parse(request.body) as { bunting: AuditRow }[]).map((log) => log.bunting),
    ),
  ocsf: () =>
    receivers.ocsf.received.flatMap((request) =>
      (
        JSON.parse(request.body) as {
          metadata: { uid: string; event_code: string };
          unmapped: { feature_name: string | null; project: string | null };
        }[]
      ).map((record) => ({
        id: record.metadata.uid,
        type: record.metadata.event_code,
        featureName: record.unmapped.feature_name,
        project: record.unmapped.project,
      })),
    ),
  webhook: () =>
    receivers.webhook.received.flatMap((request) => (JSON.parse(request.body) as { events: AuditRow[] }).events),
  syslog: () =>
    syslog.lines().map((line) => ({
      id: /externalId=([0-9a-f-]{36})/.exec(line)?.[1] ?? '',
      type: /\bact=(\S+)/.exec(line)?.[1] ?? '',
      featureName: /\bcs3=(\S+)/.exec(line)?.[1] ?? null,
      project: /\bcs1=(\S+)/.exec(line)?.[1] ?? null,
    })),
};

const created = (records: AuditRow[], prefix: string) =>
  records
    .filter((record) => record.type === 'feature-created' && record.featureName?.startsWith(prefix))
    .map((record) => record.featureName);

/** First appearances, in order: what at-least-once delivery in order must keep whatever it repeats. */
const firstSeen = (names: (string | null)[]) => [...new Set(names)];

async function createFlags(project: string, prefix: string, count: number) {
  for (let index = 0; index < count; index += 1) {
    const reply = await stack.admin.post(`/api/admin/projects/${project}/features`, { name: `${prefix}-${index}` });
    expect(reply.status).toBe(201);
  }
  return Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
}

async function addDestination(provider: string, parameters: object, filter: object = {}) {
  const reply = await stack.admin.post('/api/admin/addons', {
    provider,
    enabled: true,
    parameters,
    events: [],
    ...filter,
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.id as number;
}

const status = async (id: number) => (await stack.admin.get(`/api/admin/addons/${id}/audit-status`)).body;

beforeAll(async () => {
  syslog = await startRsyslogPeer();
  receivers.splunk = await startAuditReceiver('/');
  receivers.datadog = await startAuditReceiver('/api/v2/logs');
  receivers.ocsf = await startAuditReceiver('/ocsf');
  receivers.webhook = await startAuditReceiver('/hooks/audit');
  stack = await startTestStack({
    env: {
      AUDIT_DELIVERY_TICK_MS: '200',
      AUDIT_DELIVERY_LEASE_MS: '3000',
      AUDIT_DELIVERY_MAX_RETRY_MS: '1000',
      AUDIT_DELIVERY_UNHEALTHY_AFTER_MS: '1000',
    },
  });
  await stack.admin.post('/api/admin/projects', { id: 'payments', name: 'Payments' });
  ids.splunk = await addDestination('splunk-hec', {
    url: receivers.splunk.url,
    token: HEC_TOKEN,
    index: 'flags',
  });
  ids.datadog = await addDestination(
    'datadog-logs',
    { apiKey: DD_KEY, url: receivers.datadog.url, tags: 'team:platform' },
    { projects: ['payments'], events: ['feature-created', 'feature-archived'] },
  );
  ids.ocsf = await addDestination('ocsf', { url: receivers.ocsf.url, authorization: 'Bearer ocsf-token' });
  ids.webhook = await addDestination('signed-webhook', { url: receivers.webhook.url, secret: SECRET });
  ids.syslog = await addDestination('syslog', {
    host: syslog.host,
    port: String(syslog.port),
    format: 'cef',
    caCertificate: syslog.caCertificate,
  });
}, 60_000);

afterAll(async () => {
  await stack?.dispose();
  await syslog?.close();
  await Promise.all(Object.values(receivers).map((receiver) => receiver.close()));
});

describe('audit destinations', () => {
  it('deliver the log in order to each receiver, in its own shape and with its own filter', async () => {
    const inDefault = await createFlags('default', 'audit-a', 6);
    const inPayments = await createFlags('payments', 'audit-p', 4);
    await stack.admin.post('/api/admin/projects/payments/features/audit-p-0/environments/development/on', {});

    for (const name of ['splunk', 'ocsf', 'webhook', 'syslog'] as const)
      await eventually(async () => firstSeen(created(got[name](), 'audit-')).length === 10, { timeoutMs: 20_000 });
    for (const name of ['splunk', 'ocsf', 'webhook', 'syslog'] as const)
      expect(firstSeen(created(got[name](), 'audit-')), name).toEqual([...inDefault, ...inPayments]);
    // Datadog's filter: payments' flags created or archived, nothing else.
    await eventually(async () => firstSeen(created(got.datadog(), 'audit-')).length === 4, { timeoutMs: 20_000 });
    expect(firstSeen(created(got.datadog(), 'audit-'))).toEqual(inPayments);
    expect(got.datadog().every((record) => record.project === 'payments' && record.type === 'feature-created')).toBe(
      true,
    );

    // Splunk HEC: its token scheme and envelope.
    const hec = receivers.splunk.received[0]!;
    expect(hec.headers.authorization).toBe(`Splunk ${HEC_TOKEN}`);
    const envelope = JSON.parse(hec.body.split('\n')[0]!) as AuditRow & { [key: string]: unknown };
    const host = new URL((await stack.admin.get('/api/admin/ui-config')).body.unleashUrl as string).hostname;
    expect(envelope).toMatchObject({
      host,
      source: 'bunting',
      sourcetype: 'bunting:audit',
      index: 'flags',
    });
    expect(typeof envelope.time).toBe('number');

    // Datadog Logs: the API key header, reserved attributes, tags from the event and the configured ones.
    const logs = receivers.datadog.received[0]!;
    expect(logs.headers['dd-api-key']).toBe(DD_KEY);
    const log = (JSON.parse(logs.body) as { [key: string]: unknown }[])[0]!;
    expect(log).toMatchObject({ ddsource: 'bunting', service: 'bunting', hostname: host });
    expect(String(log.ddtags).split(',')).toEqual(
      expect.arrayContaining(['event_type:feature-created', 'project:payments', 'team:platform']),
    );

    // OCSF: every record valid against the Entity Management class, its type_uid its class and activity.
    const validate = new Ajv({ allErrors: true, strict: false }).compile(ocsfEntityManagementSchema);
    expect(receivers.ocsf.received[0]!.headers.authorization).toBe('Bearer ocsf-token');
    for (const request of receivers.ocsf.received)
      for (const record of JSON.parse(request.body) as { class_uid: number; activity_id: number; type_uid: number }[]) {
        expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
        expect(record.type_uid).toBe(record.class_uid * 100 + record.activity_id);
      }
    const enabled = await eventually(async () =>
      receivers.ocsf.received
        .flatMap((request) => JSON.parse(request.body) as { metadata: { event_code: string }; activity_id: number }[])
        .find((record) => record.metadata.event_code === 'feature-environment-enabled'),
    );
    expect(enabled?.activity_id).toBe(3);

    // The signed webhook: the signature over timestamp and body verifies with the secret, GitHub's over the body too.
    for (const request of receivers.webhook.received) {
      const timestamp = String(request.headers['x-bunting-timestamp']);
      expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(120);
      const expected = createHmac('sha256', SECRET).update(`${timestamp}.${request.body}`).digest('hex');
      expect(request.headers['x-bunting-signature']).toBe(`sha256=${expected}`);
      expect(request.headers['x-hub-signature-256']).toBe(
        `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`,
      );
    }

    // Syslog: RFC 5424 lines (rsyslog parsed and wrote them), facility log audit, CEF with the event's id.
    const line = syslog.lines().find((one) => one.includes('cs3=audit-p-0'))!;
    expect(line).toMatch(
      /^<110>1 \S+ \S+ bunting - audit \[bunting@32473 id="[0-9a-f-]{36}" type="feature-created"\] CEF:0\|Bunting\|Bunting\|/,
    );
    expect(line).toContain('suser=admin');
  }, 60_000);

  it('keep secrets masked in answers and in the events that record them', async () => {
    const addons = (await stack.admin.get('/api/admin/addons')).body as {
      addons: { id: number; parameters: { [key: string]: unknown } }[];
      providers: { name: string }[];
    };
    expect(addons.providers.map((provider) => provider.name)).toEqual(
      expect.arrayContaining(['splunk-hec', 'datadog-logs', 'syslog', 'ocsf', 'signed-webhook']),
    );
    const text = JSON.stringify(addons);
    for (const secret of [SECRET, HEC_TOKEN, DD_KEY, 'Bearer ocsf-token']) expect(text).not.toContain(secret);
    // Once the event log holds the five destinations' events (they reach it through NATS, a moment later).
    const events = await eventually(
      async () => {
        const logged = await stack.admin.get('/api/admin/events?type=addon-config-created');
        return (logged.body.events as unknown[]).length >= Object.keys(ids).length && logged.text;
      },
      { timeoutMs: 20_000 },
    );
    for (const secret of [SECRET, HEC_TOKEN, DD_KEY, 'Bearer ocsf-token']) expect(events).not.toContain(secret);
    // And the webhook receiver got its own configuration event without its secret in it.
    expect(receivers.webhook.received.map((request) => request.body).join('')).not.toContain(SECRET);
  });

  it('refuses bad settings with the field named, and changes nothing', async () => {
    const before = (await stack.admin.get('/api/admin/addons')).body.addons.length as number;
    for (const [provider, parameters, field] of [
      ['signed-webhook', { url: receivers.webhook.url, secret: 'short' }, 'parameters.secret'],
      ['splunk-hec', { url: 'ftp://splunk', token: 't' }, 'parameters.url'],
      ['syslog', { host: '127.0.0.1', port: '70000' }, 'parameters.port'],
      ['datadog-logs', { apiKey: 'k', site: 'datadoghq.example' }, 'parameters.site'],
    ] as const) {
      const reply = await stack.admin.post('/api/admin/addons', { provider, enabled: true, parameters, events: [] });
      expect(reply.status, provider).toBe(400);
      expect(reply.text).toContain(field);
    }
    const replay = await stack.admin.post(`/api/admin/addons/${ids.webhook}/audit-replay`, { from: 'yesterday' });
    expect(replay.status).toBe(400);
    expect((await stack.admin.get('/api/admin/addons')).body.addons.length).toBe(before);
  });

  it('try a batch a receiver refused again, losing nothing and keeping the order', async () => {
    const failedBefore = await metric('bunting_audit_delivery_failed_total', ids.webhook);
    receivers.webhook.failNext(2);
    const names = await createFlags('default', 'audit-r', 5);
    await eventually(async () => firstSeen(created(got.webhook(), 'audit-r')).length === 5, { timeoutMs: 20_000 });
    expect(firstSeen(created(got.webhook(), 'audit-r'))).toEqual(names);
    expect(await metric('bunting_audit_delivery_failed_total', ids.webhook)).toBeGreaterThanOrEqual(failedBefore + 2);
    expect(await metric('bunting_audit_delivery_retried_total', ids.webhook)).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('hold what a receiver that is away has not taken, say so, and deliver it in order when it is back', async () => {
    await receivers.splunk.down();
    await syslog.stop();
    const names = await createFlags('default', 'audit-d', 5);
    // The others do not wait for them.
    await eventually(async () => firstSeen(created(got.webhook(), 'audit-d')).length === 5, { timeoutMs: 20_000 });
    const away = await eventually(
      async () => {
        const now = await status(ids.splunk);
        return now.healthy === false && now.pending > 0 ? now : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(away.lastError).toMatch(/Splunk HEC could not be reached/);
    expect(away.lagSeconds).toBeGreaterThan(0);
    await eventually(async () => (await metric('bunting_audit_delivery_healthy', ids.splunk)) === 0);
    await eventually(async () => (await status(ids.syslog)).failures > 0, { timeoutMs: 20_000 });
    expect(created(got.splunk(), 'audit-d')).toEqual([]);

    await receivers.splunk.up();
    await syslog.start();
    for (const name of ['splunk', 'syslog'] as const) {
      await eventually(async () => firstSeen(created(got[name](), 'audit-d')).length === 5, { timeoutMs: 30_000 });
      expect(firstSeen(created(got[name](), 'audit-d')), name).toEqual(names);
    }
    const back = await eventually(async () => {
      const now = await status(ids.splunk);
      return now.healthy && now.pending === 0 ? now : undefined;
    });
    expect(back).toMatchObject({ failures: 0, lastError: null, lagSeconds: 0 });
    // Nothing before the outage came twice to Splunk: the position moved only past what it took.
    const names10 = got.splunk().map((record) => record.id);
    expect(new Set(names10).size).toBe(names10.length);
  }, 90_000);

  it('let a slow receiver take its time without holding up the others', async () => {
    receivers.ocsf.delayMs = 4000;
    try {
      const [name] = await createFlags('default', 'audit-slow', 1);
      const webhookAt = await eventually(
        async () => receivers.webhook.received.find((request) => request.body.includes(`"${name}"`))?.at,
      );
      const ocsfAt = await eventually(
        async () => receivers.ocsf.received.find((request) => request.body.includes(`"${name}"`))?.at,
        { timeoutMs: 20_000 },
      );
      expect(ocsfAt - webhookAt).toBeGreaterThan(2000);
    } finally {
      receivers.ocsf.delayMs = 0;
    }
  }, 40_000);

  it('replay from a time on request, with the same ids, and record who asked', async () => {
    const before = got
      .webhook()
      .filter((record) => record.featureName === 'audit-a-0' && record.type === 'feature-created');
    expect(before).toHaveLength(1);
    const from = new Date(Date.now() - 10 * 60_000).toISOString();
    const replay = await stack.admin.post(`/api/admin/addons/${ids.webhook}/audit-replay`, { from });
    expect(replay.status).toBe(202);
    await eventually(
      async () =>
        got.webhook().filter((record) => record.featureName === 'audit-a-0' && record.type === 'feature-created')
          .length === 2,
      { timeoutMs: 20_000 },
    );
    const again = got
      .webhook()
      .filter((record) => record.featureName === 'audit-a-0' && record.type === 'feature-created');
    expect(again[1]!.id).toBe(again[0]!.id);
    // The request's own event reaches the event log through NATS, apart from the deliveries awaited above.
    const asked = await eventually(
      async () => {
        const events = (await stack.admin.get('/api/admin/events?type=addon-config-updated')).body.events as {
          data: { auditReplayFrom?: string };
          createdBy: string;
        }[];
        return events.find((event) => event.data.auditReplayFrom === from);
      },
      { timeoutMs: 20_000 },
    );
    expect(asked.createdBy).toBe('admin');
  }, 40_000);

  it('replay from an event, named by the id receivers got or by its id in the log', async () => {
    const count = (name: string) =>
      got.webhook().filter((record) => record.featureName === name && record.type === 'feature-created').length;
    // audit-r-2's uuid, as the receiver got it: it and what came after are sent again, audit-r-1 before it is not.
    const uuid = got
      .webhook()
      .find((record) => record.featureName === 'audit-r-2' && record.type === 'feature-created')!.id;
    const [r1, r2] = [count('audit-r-1'), count('audit-r-2')];
    expect((await stack.admin.post(`/api/admin/addons/${ids.webhook}/audit-replay`, { fromEvent: uuid })).status).toBe(
      202,
    );
    await eventually(async () => count('audit-r-2') === r2 + 1 && count('audit-slow-0') >= 2, { timeoutMs: 20_000 });
    expect(count('audit-r-1')).toBe(r1);
    // By the log's own id (what /api/admin/events shows).
    const logged = (await stack.admin.get('/api/admin/events/audit-slow-0')).body.events as {
      id: number;
      type: string;
    }[];
    const id = logged.find((event) => event.type === 'feature-created')!.id;
    const slow = count('audit-slow-0');
    expect((await stack.admin.post(`/api/admin/addons/${ids.webhook}/audit-replay`, { fromEvent: id })).status).toBe(
      202,
    );
    await eventually(async () => count('audit-slow-0') === slow + 1, { timeoutMs: 20_000 });
    expect(count('audit-r-2')).toBe(r2 + 1);
    // One the log does not have: 404, and nothing moves.
    const missing = await stack.admin.post(`/api/admin/addons/${ids.webhook}/audit-replay`, { fromEvent: 99_999_999 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('no event 99999999');
  }, 60_000);

  it('gives a low-value credential (viewer, SDK token, SCIM token, none) nothing: no status, no replay, no destination', async () => {
    const sdk = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'audit-sdk',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    await stack.admin.post('/api/admin/user-admin', {
      username: 'audit-viewer',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const viewer = await loginAs(stack.url, 'audit-viewer', 'a-long-password');
    const sdkClient = stack.anonymous.withHeaders({ authorization: sdk.body.secret });
    const replayBefore = await status(ids.webhook);
    await stack.admin.post('/api/admin/scim-settings', { enabled: true });
    const scimToken = (await stack.admin.post('/api/admin/scim-settings/generate-new-token')).body.token as string;
    const scimClient = stack.anonymous.withHeaders({ authorization: `Bearer ${scimToken}` });
    for (const client of [viewer, sdkClient, scimClient, stack.anonymous]) {
      expect([401, 403]).toContain((await client.get(`/api/admin/addons/${ids.webhook}/audit-status`)).status);
      expect([401, 403]).toContain(
        (await client.post(`/api/admin/addons/${ids.webhook}/audit-replay`, { from: new Date(0).toISOString() }))
          .status,
      );
      expect([401, 403]).toContain(
        (
          await client.post('/api/admin/addons', {
            provider: 'signed-webhook',
            enabled: true,
            parameters: { url: 'http://127.0.0.1:9/steal', secret: 'sixteen-characters!' },
            events: [],
          })
        ).status,
      );
    }
    expect((await status(ids.webhook)).position).toBeGreaterThanOrEqual(replayBefore.position);
  });
});

/** A destination's value of an audit delivery metric on /internal-backstage/prometheus. */
async function metric(name: string, id: number): Promise<number> {
  const text = (await stack.anonymous.get('/internal-backstage/prometheus')).text;
  const line = text.split('\n').find((one) => one.startsWith(`${name}{destination="${id}:`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}
