import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Unleash } from 'unleash-client';
import {
  eventually,
  httpClient,
  startTestStack,
  type HttpClient,
  type TestStack,
  stopUnleashSdk,
} from '@bunting/test-stack';

/**
 * The delta protocol with the real Node SDK, unmodified: streaming (server-sent events on /api/client/streaming)
 * and delta polling (/api/client/delta), each following flag and segment changes made through the admin API.
 */
let stack: TestStack;
let client: HttpClient;
const clientToken = 'default:development.delta-sdk';
const base = '/api/admin/projects/default/features';
let segmentId: number;
const sdks: Unleash[] = [];

async function startSdk(mode: { type: 'streaming' } | { type: 'polling'; format: 'delta' }, name: string) {
  const sdk = new Unleash({
    url: `${stack.url}/api/`,
    appName: name,
    customHeaders: { Authorization: clientToken },
    // A streaming SDK that polled instead would see no change within the test's time.
    refreshInterval: mode.type === 'streaming' ? 600_000 : 200,
    disableMetrics: true,
    experimentalMode: mode,
  });
  const warnings: string[] = [];
  sdk.on('warn', (warning) => warnings.push(String(warning)));
  // The SDK announces falling back from streaming to polling; nothing should make it.
  sdk.on('mode', (change) => warnings.push(`mode change ${JSON.stringify(change)}`));
  sdk.on('error', () => undefined);
  sdks.push(sdk);
  await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));
  return { sdk, warnings };
}

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  client = httpClient(stack.url, { authorization: clientToken });
  const segment = await stack.admin.post('/api/admin/segments', {
    name: 'insiders',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann'] }],
  });
  segmentId = segment.body.id;
  await stack.admin.post(base, { name: 'plain' });
  await stack.admin.post(`${base}/plain/environments/development/on`);
  await stack.admin.post(base, { name: 'insiders-only' });
  await stack.admin.post(`${base}/insiders-only/environments/development/strategies`, {
    name: 'default',
    segments: [segmentId],
  });
  await stack.admin.post(`${base}/insiders-only/environments/development/on`);
  await eventually(async () => (await client.get('/api/client/features')).body.features?.length === 2);
}, 60_000);

afterAll(async () => {
  for (const sdk of sdks) stopUnleashSdk(sdk);
  await stack?.dispose();
});

describe('GET /api/client/delta', () => {
  it('hydrates first, answers 304 while nothing changed, then sends only what changed', async () => {
    const first = await client.get('/api/client/delta');
    expect(first.status).toBe(200);
    expect(first.body.events).toHaveLength(1);
    expect(first.body.events[0]).toMatchObject({ type: 'hydration', segments: [{ id: segmentId, name: 'insiders' }] });
    expect(first.body.events[0].features.map((f: { name: string }) => f.name).sort()).toEqual([
      'insiders-only',
      'plain',
    ]);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+:\d+"$/);
    expect((await client.get('/api/client/delta', { 'if-none-match': etag })).status).toBe(304);

    await stack.admin.post(`${base}/plain/environments/development/off`);
    const delta = await eventually(async () => {
      const reply = await client.get('/api/client/delta', { 'if-none-match': etag });
      return reply.status === 200 && reply;
    });
    expect(delta.body.events).toEqual([
      {
        type: 'feature-updated',
        eventId: expect.any(Number),
        feature: expect.objectContaining({ name: 'plain', enabled: false }),
      },
    ]);
    expect(delta.headers.get('etag')).not.toBe(etag);

    const unknown = await client.get('/api/client/delta', { 'if-none-match': '"0000:1"' });
    expect(unknown.body.events[0].type).toBe('hydration');
    expect((await stack.anonymous.get('/api/client/delta')).status).toBe(401);
    await stack.admin.post(`${base}/plain/environments/development/on`);
  });
});

describe.each([
  ['streaming', { type: 'streaming' as const }],
  ['delta polling', { type: 'polling' as const, format: 'delta' as const }],
])('the Node SDK in %s mode', (label, mode) => {
  it('follows flag changes, new and archived flags, and segment changes', async () => {
    const { sdk, warnings } = await startSdk(mode, `delta-${label.replace(' ', '-')}`);
    await eventually(async () => sdk.isEnabled('plain'));
    expect(sdk.isEnabled('insiders-only', { userId: 'ann' })).toBe(true);
    expect(sdk.isEnabled('insiders-only', { userId: 'bob' })).toBe(false);

    await stack.admin.post(`${base}/plain/environments/development/off`);
    await eventually(async () => !sdk.isEnabled('plain'));
    await stack.admin.post(`${base}/plain/environments/development/on`);
    await eventually(async () => sdk.isEnabled('plain'));

    const added = `added-${label.replace(' ', '-')}`;
    await stack.admin.post(base, { name: added });
    await stack.admin.post(`${base}/${added}/environments/development/on`);
    await eventually(async () => sdk.isEnabled(added));
    await stack.admin.delete(`${base}/${added}`);
    await eventually(async () => !sdk.isEnabled(added));

    await stack.admin.put(`/api/admin/segments/${segmentId}`, {
      name: 'insiders',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann', 'bob'] }],
    });
    await eventually(async () => sdk.isEnabled('insiders-only', { userId: 'bob' }));
    await stack.admin.put(`/api/admin/segments/${segmentId}`, {
      name: 'insiders',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann'] }],
    });
    await eventually(async () => !sdk.isEnabled('insiders-only', { userId: 'bob' }));
    expect(warnings.filter((warning) => /re-hydration|Unknown event|mode change/.test(warning))).toEqual([]);
  });
});

describe('GET /api/client/streaming', () => {
  it('sends the state on connect and a delta from the Last-Event-ID it is given', async () => {
    const controller = new AbortController();
    const response = await fetch(`${stack.url}/api/client/streaming`, {
      headers: { authorization: clientToken },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    const text = new TextDecoder().decode(value);
    expect(text).toMatch(/^event: unleash-connected\nid: \d+\ndata: \{"events":\[\{"type":"hydration"/);
    const revision = Number(text.match(/\nid: (\d+)/)![1]);
    controller.abort();

    const resumed = await fetch(`${stack.url}/api/client/streaming`, {
      headers: { authorization: clientToken, 'last-event-id': String(revision) },
    });
    const resumedReader = resumed.body!.getReader();
    const first = new TextDecoder().decode((await resumedReader.read()).value);
    expect(first).toContain('data: {"events":[]}');
    await stack.admin.post(`${base}/plain/environments/development/off`);
    const update = new TextDecoder().decode((await resumedReader.read()).value);
    expect(update).toMatch(/^event: unleash-updated\nid: \d+\ndata: /);
    expect(JSON.parse(update.split('data: ')[1]!).events).toEqual([
      expect.objectContaining({
        type: 'feature-updated',
        feature: expect.objectContaining({ name: 'plain', enabled: false }),
      }),
    ]);
    // The edge says how long telling its open streams took, once it has told them.
    const exposition = (await stack.anonymous.get('/internal-backstage/prometheus')).text;
    const notify = /^bunting_snapshot_notify_seconds\{environment="development"\} (\S+)$/m.exec(exposition);
    expect(Number(notify?.[1])).toBeGreaterThan(0);
    await resumedReader.cancel();
    expect((await stack.anonymous.get('/api/client/streaming')).status).toBe(401);
  });

  it('ends the stream of a token deleted while it is open', async () => {
    const created = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'short-lived',
      type: 'client',
      environment: 'development',
      projects: ['default'],
    });
    expect(created.status).toBe(201);
    const response = await fetch(`${stack.url}/api/client/streaming`, {
      headers: { authorization: created.body.secret },
    });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('unleash-connected');
    expect((await stack.admin.delete(`/api/admin/api-tokens/${encodeURIComponent(created.body.secret)}`)).status).toBe(
      200,
    );
    await stack.admin.post(`${base}/plain/environments/development/on`);
    let ended = false;
    for (let reads = 0; reads < 5 && !ended; reads += 1) ended = (await reader.read()).done;
    expect(ended).toBe(true);
  });

  it('serves an SDK asking for flags by tag only those flags', async () => {
    await stack.admin.post('/api/admin/features/insiders-only/tags', { type: 'simple', value: 'beta' });
    const sdk = new Unleash({
      url: `${stack.url}/api/`,
      appName: 'tagged-sdk',
      customHeaders: { Authorization: clientToken },
      refreshInterval: 200,
      disableMetrics: true,
      tags: [{ name: 'simple', value: 'beta' }],
    });
    sdk.on('error', () => undefined);
    sdks.push(sdk);
    await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));
    await eventually(async () => sdk.getFeatureToggleDefinitions().length === 1);
    expect(sdk.getFeatureToggleDefinitions().map((feature) => feature.name)).toEqual(['insiders-only']);
    expect(sdk.isEnabled('insiders-only', { userId: 'ann' })).toBe(true);
    expect(sdk.isEnabled('plain')).toBe(false);
  });
});
