import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialize, type Unleash } from 'unleash-client';
import { UnleashClient } from 'unleash-proxy-client';
import {
  eventually,
  httpClient,
  metricSamples,
  startCountingProxy,
  startTestStack,
  startUnleashPeer,
  type CountingProxy,
  type HttpClient,
  type TestStack,
  type UnleashPeer,
  stopUnleashSdk,
} from '@bunting/test-stack';

/**
 * The standalone edge in front of the real Unleash 8.2 server, as a team keeping its Unleash and replacing its Edge
 * would run it: flags configured in Unleash's admin API reach the real SDKs through the edge, the SDKs' metrics reach
 * Unleash, and tokens Unleash issues are accepted (and refused once revoked there).
 */
const backendToken = 'default:development.edge-unleash-backend';
const frontendToken = 'default:development.edge-unleash-frontend';
const base = '/api/admin/projects/default/features';

let unleash: UnleashPeer;
let unleashAdmin: HttpClient;
let edge: TestStack;
/** Between the edge and Unleash: what Unleash sends the edge is counted. */
let proxy: CountingProxy;
const persistDir = mkdtempSync(join(tmpdir(), 'bunting-edge-unleash-'));
const stops: (() => void)[] = [];
const edgeEnv = () => ({
  UPSTREAM_URL: `http://127.0.0.1:${proxy.port}`,
  EDGE_TOKENS: backendToken,
  EDGE_POLL_MS: '300',
  EDGE_METRICS_INTERVAL_MS: '300',
  EDGE_TOKEN_REVALIDATE_MS: '500',
  EDGE_PROBE_MS: '60000',
  EDGE_PERSIST_DIR: persistDir,
});
async function metric(series: string): Promise<number> {
  return (await metricSamples(edge.url)).get(series) ?? 0;
}

async function flag(name: string, strategy: object, enabled = true) {
  expect((await unleashAdmin.post(base, { name })).status).toBe(201);
  expect((await unleashAdmin.post(`${base}/${name}/environments/development/strategies`, strategy)).status).toBe(200);
  if (enabled) expect((await unleashAdmin.post(`${base}/${name}/environments/development/on`)).status).toBe(200);
}

beforeAll(async () => {
  unleash = await startUnleashPeer({ backend: [backendToken], frontend: [frontendToken] });
  unleashAdmin = httpClient(unleash.url, { authorization: unleash.adminToken });
  const segment = await unleashAdmin.post('/api/admin/segments', {
    name: 'nordics',
    constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE'] }],
  });
  await flag('half-of-users', {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'userId', groupId: 'half' },
  });
  await flag('nordic-only', { name: 'default', segments: [segment.body.id] });
  await flag('with-variants', {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'v' },
    variants: [
      {
        name: 'blue',
        weight: 500,
        weightType: 'variable',
        stickiness: 'userId',
        payload: { type: 'string', value: 'B' },
      },
      { name: 'green', weight: 500, weightType: 'variable', stickiness: 'userId' },
    ],
  });
  await flag('switched-later', { name: 'default' }, false);
  proxy = await startCountingProxy(Number(new URL(unleash.url).port));
  edge = await startTestStack({ target: 'edge', env: edgeEnv() });
  await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, { intervalMs: 50 });
}, 150_000);

afterAll(async () => {
  for (const stop of stops) stop();
  await edge?.dispose();
  await proxy?.close();
  await unleash?.stop();
  rmSync(persistDir, { recursive: true, force: true });
});

const contexts = Array.from({ length: 30 }, (_, index) => ({
  userId: `u${index}`,
  country: ['NO', 'SE', 'US', 'DE'][index % 4]!,
}));

describe('the edge in front of Unleash 8.2', () => {
  it(
    'follows Unleash by polling (Unleash 8.2 offers neither streaming nor delta) and answers as Unleash does',
    { timeout: 40_000 },
    async () => {
      expect(await (await fetch(`${edge.url}/internal-backstage/prometheus`)).text()).toContain(
        'bunting_edge_upstream_feeds{mode="polling"} 1',
      );
      // The frontend token was never configured at the edge: it is validated with Unleash on first use.
      const atEdge = httpClient(edge.url, { authorization: frontendToken });
      const atUnleash = httpClient(unleash.url, { authorization: frontendToken });
      // Unleash's own frontend API answers from a cache it fills a moment after start.
      await eventually(async () => (await atUnleash.get('/api/frontend')).body.toggles?.length > 0, {
        timeoutMs: 20_000,
        intervalMs: 200,
      });
      for (const context of contexts) {
        const query = `/api/frontend?userId=${context.userId}&properties[country]=${context.country}`;
        const [mine, theirs] = await Promise.all([atEdge.get(query), atUnleash.get(query)]);
        expect(mine.status).toBe(200);
        const shape = (body: { toggles: { name: string; enabled: boolean; variant: unknown }[] }) =>
          body.toggles
            .map(({ name, enabled, variant }) => ({ name, enabled, variant }))
            .sort((a, b) => a.name.localeCompare(b.name));
        expect(shape(mine.body)).toEqual(shape(theirs.body));
      }
    },
  );

  it('gives the real SDKs the flags, and a change made in Unleash', async () => {
    const node: Unleash = initialize({
      url: `${edge.url}/api/`,
      appName: 'edge-unleash-node',
      instanceId: 'n1',
      customHeaders: { Authorization: backendToken },
      refreshInterval: 200,
      metricsInterval: 300,
    });
    stops.push(() => stopUnleashSdk(node));
    await new Promise<void>((resolve) => node.once('synchronized', () => resolve()));
    const browser = new UnleashClient({
      url: `${edge.url}/api/frontend`,
      clientKey: frontendToken,
      appName: 'edge-unleash-browser',
      refreshInterval: 1,
      metricsInterval: 1,
      context: { properties: { country: 'NO' } },
    });
    stops.push(() => browser.stop());
    await browser.start();
    expect(browser.isEnabled('nordic-only')).toBe(true);
    expect(node.isEnabled('nordic-only', { properties: { country: 'SE' } })).toBe(true);
    expect(node.isEnabled('nordic-only', { properties: { country: 'US' } })).toBe(false);
    expect(['blue', 'green']).toContain(node.getVariant('with-variants', { userId: 'u1' }).name);
    expect(node.isEnabled('switched-later')).toBe(false);

    await unleashAdmin.post(`${base}/switched-later/environments/development/on`);
    await eventually(async () => node.isEnabled('switched-later'), { timeoutMs: 10_000, intervalMs: 20 });
    await eventually(async () => browser.isEnabled('switched-later'), { timeoutMs: 10_000, intervalMs: 20 });

    // Counts the SDK sends the edge reach Unleash's own metrics.
    for (let index = 0; index < 10; index += 1) node.isEnabled('half-of-users', { userId: `u${index}` });
    await eventually(
      async () => {
        const { body } = await unleashAdmin.get('/api/admin/client-metrics/features/half-of-users');
        const entries = (body.lastHourUsage ?? []) as { yes: number; no: number; environment: string }[];
        return entries.some((entry) => entry.environment === 'development' && entry.yes + entry.no >= 10);
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    // Its registration, sent on in the same bulk posts, makes it one of Unleash's applications.
    await eventually(
      async () =>
        ((await unleashAdmin.get('/api/admin/metrics/applications')).body.applications as { appName: string }[]).some(
          (app) => app.appName === 'edge-unleash-node',
        ),
      { timeoutMs: 20_000, intervalMs: 500 },
    );
  }, 60_000);

  it('accepts a token Unleash issues and refuses it once Unleash revoked it', async () => {
    const created = await unleashAdmin.post('/api/admin/api-tokens', {
      tokenName: 'edge-issued',
      type: 'frontend',
      environment: 'development',
      projects: ['default'],
    });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    const sdk = httpClient(edge.url, { authorization: secret });
    expect((await sdk.get('/api/frontend?userId=u1')).status).toBe(200);
    expect((await unleashAdmin.delete(`/api/admin/api-tokens/${encodeURIComponent(secret)}`)).status).toBe(200);
    // Unleash itself accepts a revoked token until its own token cache renews (about a minute): the edge follows that.
    const revokedAt = Date.now();
    await eventually(
      async () =>
        (await httpClient(unleash.url, { authorization: secret }).get('/api/frontend?userId=u1')).status === 401,
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const unleashRefusedAt = Date.now();
    await eventually(async () => (await sdk.get('/api/frontend?userId=u1')).status === 401, {
      timeoutMs: 5000,
      intervalMs: 50,
    });
    console.log(
      `a token revoked in Unleash: Unleash's frontend API refused it after ${unleashRefusedAt - revokedAt} ms (its /edge/validate still accepts it), the edge ${Date.now() - unleashRefusedAt} ms later (EDGE_TOKEN_REVALIDATE_MS=500)`,
    );
  }, 120_000);

  it('restarted, asks Unleash with the ETag it had: told nothing changed, it keeps the flags it persisted', async () => {
    // Flags enough that all of them again would be many times a 304 (Unleash takes imports from people only).
    const atEdge = () => httpClient(edge.url, { authorization: backendToken }).get('/api/client/features');
    const held = (await atEdge()).body.features.length as number;
    const users = Array.from({ length: 200 }, (_, index) => `user-${index}`);
    for (let index = 0; index < 20; index += 1)
      await flag(`edge-many-${index}`, {
        name: 'default',
        constraints: [{ contextName: 'userId', operator: 'IN', values: users }],
      });
    await eventually(async () => (await atEdge()).body.features.length === held + 20, {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const everything = (await atEdge()).text.length;

    await edge.close();
    proxy.reset();
    edge = await startTestStack({ target: 'edge', env: edgeEnv() });
    await eventually(async () => (await metric('bunting_edge_upstream_answers_total{answer="unchanged"}')) > 0, {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const sent = proxy.traffic().toClient;
    // Unleash sends its answers gzipped (a few kB here): the count of answers says what came, the bytes are reported.
    console.log(`edge restarted in front of Unleash (${everything} bytes of flags): ${sent} bytes came from Unleash`);
    expect(await metric('bunting_edge_upstream_answers_total{answer="everything"}')).toBe(0);
    expect((await atEdge()).body.features).toHaveLength(held + 20);

    // A change made in Unleash while the edge was down: Unleash answers with every flag, and the edge takes them.
    await edge.close();
    await unleashAdmin.post(`${base}/switched-later/environments/development/off`);
    edge = await startTestStack({ target: 'edge', env: edgeEnv() });
    await eventually(
      async () =>
        (await atEdge()).body.features.find((feature: { name: string }) => feature.name === 'switched-later')
          ?.enabled === false,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  });
});
