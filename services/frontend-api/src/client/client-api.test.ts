import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
let client: HttpClient;
const clientToken = 'default:development.client-api-test';
const base = '/api/admin/projects/default/features';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  client = httpClient(stack.url, { authorization: clientToken });
  const segment = await stack.admin.post('/api/admin/segments', {
    name: 'beta',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }],
  });
  await stack.admin.post(base, { name: 'segmented' });
  await stack.admin.post(`${base}/segmented/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '100' },
    segments: [segment.body.id],
    constraints: [{ contextName: 'appName', operator: 'IN', values: ['shop'] }],
  });
  await stack.admin.post(`${base}/segmented/environments/development/strategies`, { name: 'default', disabled: true });
  await stack.admin.post(`${base}/segmented/environments/development/on`);
  await stack.admin.post(base, { name: 'plain' });
  await stack.admin.post(base, { name: 'archived-one' });
  await stack.admin.delete(`${base}/archived-one`);
});
afterAll(() => stack?.dispose());

describe('GET /api/client/features', () => {
  it('sends every non-archived flag of the token environment, without disabled strategies', async () => {
    const reply = await eventually(async () => {
      const answer = await client.get('/api/client/features');
      return (
        answer.body.features?.length === 2 &&
        answer.body.features.some((f: { enabled: boolean }) => f.enabled) &&
        answer
      );
    });
    expect(reply.status).toBe(200);
    expect(reply.body.version).toBe(2);
    const segmented = reply.body.features.find((f: { name: string }) => f.name === 'segmented');
    expect(segmented).toMatchObject({
      name: 'segmented',
      enabled: true,
      project: 'default',
      type: 'release',
      stale: false,
      impressionData: false,
    });
    expect(segmented.strategies).toHaveLength(1);
    expect(reply.body.features.find((f: { name: string }) => f.name === 'plain')).toMatchObject({
      enabled: false,
      strategies: [],
    });
  });

  it('inlines segment constraints for old SDKs and sends segments once for client spec 4.3.0+', async () => {
    const old = await client.get('/api/client/features');
    const oldStrategy = old.body.features.find((f: { name: string }) => f.name === 'segmented').strategies[0];
    expect(oldStrategy.constraints.map((c: { contextName: string }) => c.contextName)).toEqual(['appName', 'userId']);
    expect(oldStrategy.segments).toBeUndefined();
    expect(old.body.segments).toBeUndefined();
    const modern = await client.get('/api/client/features', { 'unleash-client-spec': '5.2.0' });
    const strategy = modern.body.features.find((f: { name: string }) => f.name === 'segmented').strategies[0];
    expect(strategy.constraints.map((c: { contextName: string }) => c.contextName)).toEqual(['appName']);
    expect(strategy.segments).toHaveLength(1);
    expect(modern.body.segments).toEqual([
      {
        id: strategy.segments[0],
        name: 'beta',
        constraints: [expect.objectContaining({ contextName: 'userId', values: ['u1'] })],
      },
    ]);
  });

  it('narrows the flags to those with any of the tags asked for, and keeps tags out of the answer', async () => {
    await stack.admin.post('/api/admin/tag-types', { name: 'team' });
    await stack.admin.post('/api/admin/features/plain/tags', { type: 'team', value: 'checkout' });
    const tagged = await eventually(async () => {
      const answer = await client.get('/api/client/features?tag=team:checkout');
      return answer.body.features?.length === 1 && answer;
    });
    expect(tagged.body.features.map((f: { name: string }) => f.name)).toEqual(['plain']);
    expect(tagged.body.features[0].tags).toBeUndefined();
    expect(tagged.body.query.tag).toEqual(['team:checkout']);
    const either = await client.get('/api/client/features?tag=team:checkout&tag=simple:none');
    expect(either.body.features.map((f: { name: string }) => f.name)).toEqual(['plain']);
    expect((await client.get('/api/client/features?tag=team:nobody')).body.features).toEqual([]);
    expect(
      (await client.get('/api/client/features')).body.features.every((f: { tags?: unknown }) => f.tags === undefined),
    ).toBe(true);
    expect(tagged.headers.get('etag')).not.toBe((await client.get('/api/client/features')).headers.get('etag'));
    const delta = await client.get('/api/client/delta?tag=team:checkout');
    expect(delta.body.events[0].features.map((f: { name: string }) => f.name)).toEqual(['plain']);
  });

  it('sends an ETag and answers a matching If-None-Match with 304, and a new one after a change', async () => {
    const first = await client.get('/api/client/features');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{8}:\d+:v1"$/);
    const again = await client.get('/api/client/features', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    await stack.admin.post(`${base}/plain/environments/development/on`);
    const changed = await eventually(async () => {
      const answer = await client.get('/api/client/features', { 'if-none-match': etag });
      return answer.status === 200 && answer;
    });
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.features.find((f: { name: string }) => f.name === 'plain').enabled).toBe(true);
  });

  it('sends the body gzipped to SDKs that take gzip and plain to those that do not, the same flags either way', async () => {
    // Raw bytes, as an SDK's HTTP stack receives them (fetch would decode them out of sight).
    const raw = (encoding?: string) =>
      new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        const headers: Record<string, string> = { authorization: clientToken };
        if (encoding) headers['accept-encoding'] = encoding;
        request(`${stack.url}/api/client/features`, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, bytes: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    const plain = await raw();
    const gzipped = await raw('gzip, deflate, br');
    const refused = await raw('gzip;q=0, identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    for (const answer of [plain, gzipped]) expect(answer.headers.vary).toBe('accept-encoding');
    expect(gzipped.headers.etag).toBe(plain.headers.etag);
    expect(JSON.parse(gunzipSync(gzipped.bytes).toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
    expect(refused.bytes.equals(plain.bytes)).toBe(true);
  });

  it('answers a single feature and 404 for an unknown one', async () => {
    expect((await client.get('/api/client/features/segmented')).body.name).toBe('segmented');
    expect((await client.get('/api/client/features/nope')).status).toBe(404);
  });

  it('refuses frontend and admin tokens (403, as Unleash words it) and missing tokens (401)', async () => {
    const frontendToken = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'fe',
      type: 'frontend',
      environment: 'development',
    });
    expect(
      (await httpClient(stack.url, { authorization: frontendToken.body.secret }).get('/api/client/features')).status,
    ).toBe(403);
    const byAdmin = await stack.admin.get('/api/client/features');
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.message).toBe('invalid token: expected a different token type for this endpoint');
    expect((await stack.anonymous.get('/api/client/features')).status).toBe(401);
  });
});

describe('metrics and registrations', () => {
  it('accepts them with 202 and publishes them to the metrics stream', async () => {
    const jsm = await jetstreamManager(stack.messaging.nc);
    const before = (await jsm.streams.info(stack.messaging.names.metricsStream)).state.messages;
    const register = await client.post('/api/client/register', {
      appName: 'shop',
      instanceId: 'i-1',
      interval: 10000,
      started: new Date().toISOString(),
      strategies: ['default'],
    });
    expect(register.status).toBe(202);
    const metrics = await client.post('/api/client/metrics', {
      appName: 'shop',
      instanceId: 'i-1',
      bucket: {
        start: new Date().toISOString(),
        stop: new Date().toISOString(),
        toggles: { segmented: { yes: 5, no: 1, variants: {} } },
      },
    });
    expect(metrics.status).toBe(202);
    expect((await client.post('/api/client/metrics', { appName: 'shop', bucket: { start: 'x' } })).status).toBe(400);
    expect((await client.post('/api/client/register', { instanceId: 'no-app-name' })).status).toBe(400);
    const after = (await jsm.streams.info(stack.messaging.names.metricsStream)).state.messages;
    expect(after - before).toBe(2);
  });
});
