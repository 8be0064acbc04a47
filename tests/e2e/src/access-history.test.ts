import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '@bunting/platform';
import { eventually, httpClient, loginAs, startTestStack, type TestStack } from '@bunting/test-stack';
import { startAuditReceiver, type AuditReceiver } from './audit-receiver.ts';
import { ocsfAccountChangeSchema, ocsfAuthenticationSchema } from './ocsf-schema.ts';

/**
 * Sign-in history: every sign-in attempt and every credential granted, refused or taken away, with who, how, the
 * outcome, the address and the user agent; for admins in the API (filters, CSV), kept for a configured time, and
 * streamed to the audit destinations beside the event log.
 */
type Entry = {
  id: number;
  uuid: string;
  at: string;
  userId: number | null;
  name: string | null;
  method: string;
  action: string;
  outcome: string;
  detail: string | null;
  address: string | null;
  userAgent: string | null;
};

let stack: TestStack;
let webhook: AuditReceiver;
let ocsf: AuditReceiver;
let annId: number;
let scimToken: string;
const AGENT = 'access-history-test/1.0';

const history = async (query = '') =>
  (await stack.admin.get(`/api/admin/access-history${query}`)).body as { entries: Entry[]; total: number };

beforeAll(async () => {
  webhook = await startAuditReceiver('/hook');
  ocsf = await startAuditReceiver('/ocsf');
  stack = await startTestStack({
    env: {
      AUDIT_DELIVERY_TICK_MS: '200',
      AUDIT_DELIVERY_LEASE_MS: '3000',
      AUDIT_DELIVERY_MAX_RETRY_MS: '1000',
      ACCESS_HISTORY_RETENTION_DAYS: '30',
      ACCESS_HISTORY_PURGE_MS: '300',
    },
  });
  for (const [provider, parameters] of [
    ['signed-webhook', { url: webhook.url, secret: 'history-secret-of-length' }],
    ['ocsf', { url: ocsf.url }],
  ] as const) {
    const added = await stack.admin.post('/api/admin/addons', { provider, enabled: true, parameters, events: [] });
    expect(added.status).toBe(200);
  }
  // Events only: this one never receives the sign-in history.
  await stack.admin.post('/api/admin/addons', {
    provider: 'signed-webhook',
    enabled: true,
    parameters: { url: `${webhook.url}/events-only`, secret: 'history-secret-of-length', signIns: 'false' },
    events: [],
  });
  annId = (
    await stack.admin.post('/api/admin/user-admin', {
      username: 'hist-ann',
      email: 'ann@example.com',
      password: 'a-long-password',
      rootRole: 'Editor',
    })
  ).body.id;
}, 60_000);

afterAll(async () => {
  await stack?.dispose();
  await webhook?.close();
  await ocsf?.close();
});

describe('sign-in history', () => {
  it('records password sign-ins, right and wrong, with the address and user agent', async () => {
    const browser = httpClient(stack.url, { 'user-agent': AGENT });
    expect(
      (await browser.post('/auth/simple/login', { username: 'hist-ann', password: 'a-long-password' })).status,
    ).toBe(200);
    expect(
      (await browser.post('/auth/simple/login', { username: 'hist-ann', password: 'wrong-password' })).status,
    ).toBe(401);
    expect((await browser.post('/auth/simple/login', { username: 'nobody-here', password: 'whatever-1' })).status).toBe(
      401,
    );
    const { entries } = await history('?method=password');
    expect(entries.slice(0, 3)).toMatchObject([
      {
        name: 'nobody-here',
        userId: null,
        action: 'sign-in',
        outcome: 'failure',
        detail: 'Wrong password or username.',
      },
      { name: 'hist-ann', userId: annId, outcome: 'failure' },
      { name: 'hist-ann', userId: annId, outcome: 'success', detail: null },
    ]);
    for (const entry of entries.slice(0, 3)) {
      expect(entry.userAgent).toBe(AGENT);
      expect(entry.address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    }
  });

  it('records tokens made, and the use of one that was revoked', async () => {
    const ann = await loginAs(stack.url, 'hist-ann', 'a-long-password');
    const pat = await ann.post('/api/admin/user/tokens', {
      description: 'ci pipeline',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(pat.status, pat.text).toBe(201);
    const token = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'hist-script',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    expect(token.status, token.text).toBe(201);
    const secret = token.body.secret as string;
    expect((await httpClient(stack.url, { authorization: secret }).get('/api/admin/projects')).status).toBe(403);
    expect((await stack.admin.delete(`/api/admin/api-tokens/${encodeURIComponent(secret)}`)).status).toBe(200);
    const revoked = httpClient(stack.url, { authorization: secret, 'user-agent': 'stolen-laptop/2' });
    expect((await revoked.get('/api/admin/projects')).status).toBe(401);
    // Tried again at once: recorded once a minute at most, however often it is tried.
    expect((await revoked.get('/api/admin/projects')).status).toBe(401);
    // An unknown token is no revoked one: nothing recorded.
    expect((await httpClient(stack.url, { authorization: '*:*.never-issued' }).get('/api/admin/projects')).status).toBe(
      401,
    );

    const created = (await history('?action=created')).entries;
    expect(created.find((entry) => entry.method === 'personal-access-token')).toMatchObject({
      userId: annId,
      outcome: 'success',
      detail: 'ci pipeline',
    });
    expect(created.find((entry) => entry.method === 'api-token')).toMatchObject({
      outcome: 'success',
      detail: 'client token hist-script',
    });
    const used = (await history('?action=revoked-use')).entries;
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({
      method: 'api-token',
      outcome: 'failure',
      detail: 'revoked token hist-script',
      userAgent: 'stolen-laptop/2',
    });
  });

  it('records a SCIM client deactivating an account, once', async () => {
    await stack.admin.post('/api/admin/scim-settings', { enabled: true });
    scimToken = (await stack.admin.post('/api/admin/scim-settings/generate-new-token')).body.token as string;
    const scim = httpClient(stack.url, {
      authorization: `Bearer ${scimToken}`,
      'content-type': 'application/scim+json',
      'user-agent': 'Okta SCIM Client 1.0.0',
    });
    const made = await scim.post('/scim/v2/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'hist-bo@example.com',
      active: true,
    });
    expect(made.status).toBe(201);
    const patch = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    };
    expect((await scim.patch(`/scim/v2/Users/${made.body.id}`, patch)).status).toBe(200);
    // Already inactive: deprovisioning deactivates nothing more.
    expect((await scim.delete(`/scim/v2/Users/${made.body.id}`)).status).toBe(204);
    const { entries } = await history('?method=scim');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'deactivated',
      outcome: 'success',
      name: 'hist-bo@example.com',
      userAgent: 'Okta SCIM Client 1.0.0',
    });
  });

  it('filters by user, outcome and time, and exports CSV a spreadsheet cannot be tricked by', async () => {
    const ann = await history('?user=hist-ann');
    expect(ann.entries.length).toBeGreaterThanOrEqual(4);
    expect(ann.entries.every((entry) => entry.userId === annId || entry.name === 'hist-ann')).toBe(true);
    expect(
      (await history(`?user=${annId}&outcome=failure`)).entries.every((entry) => entry.outcome === 'failure'),
    ).toBe(true);
    expect((await history(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(0);
    const paged = await history('?limit=2&offset=1');
    expect(paged.entries).toHaveLength(2);
    expect(paged.total).toBeGreaterThan(2);

    await httpClient(stack.url).post('/auth/simple/login', {
      username: '=HYPERLINK("http://x")',
      password: 'nope-nope',
    });
    const csv = await stack.admin.get('/api/admin/access-history/export?method=password');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain('sign-in-history.csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('at,userId,name,method,action,outcome,detail,address,userAgent,uuid');
    expect(lines).toHaveLength(1 + (await history('?method=password')).total);
    expect(csv.text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(csv.text).not.toMatch(/(^|,)=HYPERLINK/m);

    expect((await stack.admin.get('/api/admin/access-history?outcome=maybe')).status).toBe(400);
  });

  it('is for admins only: a viewer, an editor, an SDK token, the SCIM token and no one get nothing', async () => {
    await stack.admin.post('/api/admin/user-admin', {
      username: 'hist-viewer',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const sdk = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'hist-sdk',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    for (const client of [
      await loginAs(stack.url, 'hist-viewer', 'a-long-password'),
      await loginAs(stack.url, 'hist-ann', 'a-long-password'),
      httpClient(stack.url, { authorization: sdk.body.secret }),
      httpClient(stack.url, { authorization: `Bearer ${scimToken}` }),
      stack.anonymous,
    ]) {
      expect([401, 403]).toContain((await client.get('/api/admin/access-history')).status);
      expect([401, 403]).toContain((await client.get('/api/admin/access-history/export')).status);
    }
  });

  it('streams to the audit destinations that want it, as OCSF Authentication and Account Change', async () => {
    const total = (await history('?limit=1')).total;
    const recordsAt = (path: string) =>
      webhook.received
        .filter((request) => request.path === path)
        .flatMap((request) => (JSON.parse(request.body) as { events: { kind: string; id: string }[] }).events);
    await eventually(
      async () =>
        new Set(
          recordsAt('/hook')
            .filter((record) => record.kind === 'access')
            .map((record) => record.id),
        ).size === total,
      { timeoutMs: 20_000 },
    );
    // The events-only destination got the events and no sign-ins.
    expect(recordsAt('/hook/events-only').length).toBeGreaterThan(0);
    expect(recordsAt('/hook/events-only').filter((record) => record.kind !== 'event')).toEqual([]);

    const authentication = new Ajv({ strict: false, allErrors: true }).compile(ocsfAuthenticationSchema);
    const accountChange = new Ajv({ strict: false, allErrors: true }).compile(ocsfAccountChangeSchema);
    const records = () =>
      ocsf.received.flatMap(
        (request) => JSON.parse(request.body) as { class_uid: number; activity_id: number; type_uid: number }[],
      );
    await eventually(async () => records().filter((record) => record.class_uid !== 3004).length === total, {
      timeoutMs: 20_000,
    });
    for (const record of records().filter((one) => one.class_uid !== 3004)) {
      const validate = record.class_uid === 3001 ? accountChange : authentication;
      expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
      expect(record.type_uid).toBe(record.class_uid * 100 + record.activity_id);
    }
    expect(records().some((record) => record.class_uid === 3001 && record.activity_id === 5)).toBe(true);
  }, 40_000);

  it('keeps entries for the configured time, then lets them go', async () => {
    await stack.db.query(sql.unsafe`
      insert into admin.access_history (at, name, method, action, outcome)
      values (now() - interval '31 days', 'long-gone', 'password', 'sign-in', 'failure')`);
    await eventually(async () => (await history('?user=long-gone')).total === 0, { timeoutMs: 10_000 });
    expect((await history('?user=hist-ann')).total).toBeGreaterThan(0);
  });
});
