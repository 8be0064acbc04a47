import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialize, type Unleash } from 'unleash-client';
import { UnleashClient } from 'unleash-proxy-client';
import { startStack, type Stack } from '@bunting/launcher';
import {
  eventually,
  httpClient,
  rolloutExport,
  startServiceProcess,
  startDelayProxy,
  startTestStack,
  type DelayProxy,
  type TestStack,
  stopUnleashSdk,
} from '@bunting/test-stack';

/**
 * The standalone edge (BUNTING_TARGET=edge) in front of a Bunting cluster in another "region": every request between
 * them crosses a proxy that adds 80 ms each way. The unmodified SDKs talk to the edge only.
 */
const clientToken = 'default:development.edge-region-client';
const base = '/api/admin/projects/default/features';
const DELAY_MS = 80;

let upstream: TestStack;
/** The upstream after it was stopped and started again (same database, streams and Redis). */
let restarted: Stack | undefined;
let proxy: DelayProxy;
let edge: TestStack;
let frontendToken: string;
const persistDir = mkdtempSync(join(tmpdir(), 'bunting-edge-'));
const sdks: { destroy: () => void }[] = [];

const upstreamAdmin = () =>
  restarted ? httpClient(restarted.url, { authorization: upstream.adminToken }) : upstream.admin;
const edgeEnv = (url: string) => ({
  UPSTREAM_URL: url,
  EDGE_TOKENS: clientToken,
  EDGE_PERSIST_DIR: persistDir,
  EDGE_POLL_MS: '500',
  EDGE_METRICS_INTERVAL_MS: '300',
  EDGE_TOKEN_REVALIDATE_MS: '500',
  EDGE_STALE_AFTER_MS: '1500',
  EDGE_REQUEST_TIMEOUT_MS: '3000',
});
const portOf = (url: string) => Number(new URL(url).port);

async function metric(url: string, name: string): Promise<string> {
  const text = await (await fetch(`${url}/internal-backstage/prometheus`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(name))
    .join('\n');
}

beforeAll(async () => {
  upstream = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  for (const name of ['edge-on', 'edge-later']) await upstream.admin.post(base, { name });
  await upstream.admin.post(`${base}/edge-on/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default' },
  });
  await upstream.admin.post(`${base}/edge-on/environments/development/on`);
  frontendToken = (
    await upstream.admin.post('/api/admin/api-tokens', {
      tokenName: 'edge-browser',
      type: 'frontend',
      environment: 'development',
      projects: ['*'],
    })
  ).body.secret;
  proxy = await startDelayProxy(portOf(upstream.url), DELAY_MS);
  edge = await startTestStack({ target: 'edge', env: edgeEnv(proxy.url) });
}, 90_000);

afterAll(async () => {
  for (const sdk of sdks) stopUnleashSdk(sdk);
  await edge?.dispose();
  // The proxy first: connections the edges' HTTP clients keep open through it would hold the upstream's close until
  // they idle out.
  await proxy?.close();
  await restarted?.close();
  await upstream?.dispose();
  rmSync(persistDir, { recursive: true, force: true });
});

describe('the edge in front of a Bunting cluster in another region', () => {
  let node: Unleash;
  let browser: UnleashClient;

  it('is ready with the configured token followed by streaming, and serves the real SDKs', async () => {
    // Ready once the configured token's environment came from the upstream (the process listens before that).
    const startedAt = Date.now();
    await eventually(
      async () => ((await (await fetch(`${edge.url}/ready`)).json()) as { health: string }).health === 'GOOD',
      { intervalMs: 50 },
    );
    console.log(
      `edge start, nothing persisted, upstream ${DELAY_MS} ms away each way: ready within ${Date.now() - startedAt} ms of listening`,
    );
    expect(await metric(edge.url, 'bunting_edge_upstream_feeds{mode="streaming"}')).toContain(' 1');

    node = initialize({
      url: `${edge.url}/api/`,
      appName: 'edge-node',
      instanceId: 'n1',
      customHeaders: { Authorization: clientToken },
      refreshInterval: 200,
      metricsInterval: 300,
      disableAutoStart: false,
    });
    sdks.push(node);
    // The edge is restarted below: the SDK's failed polls meanwhile are expected, and reported as events.
    node.on('error', () => undefined);
    await new Promise<void>((resolve) => node.once('synchronized', () => resolve()));
    expect(node.isEnabled('edge-on')).toBe(true);
    expect(node.isEnabled('edge-later')).toBe(false);

    // The frontend token is not configured: the edge learns it from the upstream on first use.
    browser = new UnleashClient({
      url: `${edge.url}/api/frontend`,
      clientKey: frontendToken,
      appName: 'edge-browser',
      refreshInterval: 1,
      metricsInterval: 1,
    });
    sdks.push({ destroy: () => browser.stop() });
    await browser.start();
    await eventually(async () => browser.isEnabled('edge-on'));
    expect(browser.isEnabled('edge-later')).toBe(false);
  });

  it('passes a change made upstream to both SDKs, and reports how long it took', async () => {
    // A streamed change names its flag: the edge installs it as a delta, without comparing every flag it holds.
    const deltaInstalls = async () =>
      Number(
        (await metric(edge.url, 'bunting_snapshot_installs_total{environment="development",how="delta"}')).split(
          ' ',
        )[1] ?? 0,
      );
    const deltasBefore = await deltaInstalls();
    const changedAt = Date.now();
    await upstream.admin.post(`${base}/edge-later/environments/development/on`);
    await eventually(async () => node.isEnabled('edge-later'), { timeoutMs: 10_000, intervalMs: 5 });
    expect(await deltaInstalls()).toBeGreaterThan(deltasBefore);
    const nodeMs = Date.now() - changedAt;
    await eventually(async () => browser.isEnabled('edge-later'), { timeoutMs: 10_000, intervalMs: 5 });
    console.log(
      `propagation through the edge behind ${DELAY_MS} ms each way: node SDK (polling the edge every 200 ms) ${nodeMs} ms, browser SDK ${Date.now() - changedAt} ms`,
    );
  });

  it('tells OFREP clients of an upstream change through the event stream its bulk answer names', async () => {
    const ofrep = httpClient(edge.url, { authorization: frontendToken });
    const bulk = await ofrep.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1' } });
    expect(bulk.status).toBe(200);
    const stream = new URL(bulk.body.eventStreams[0].url);
    const controller = new AbortController();
    const opened = await fetch(`${edge.url}${stream.pathname}${stream.search}`, { signal: controller.signal });
    expect(opened.headers.get('content-type')).toContain('text/event-stream');
    const reader = opened.body!.getReader();
    await upstream.admin.post(base, { name: 'edge-ofrep-new' });
    let text = '';
    while (!text.includes('refetchEvaluation')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const again = await ofrep.post(
      '/ofrep/v1/evaluate/flags',
      { context: { targetingKey: 'u1' } },
      { 'if-none-match': bulk.headers.get('etag')! },
    );
    expect(again.status).toBe(200);
  });

  it('forwards the SDKs metrics, registrations and impact metrics upstream in bulk', async () => {
    node.impactMetrics.defineCounter('edge_checkouts', 'Checkouts seen through the edge');
    node.impactMetrics.incrementCounter('edge_checkouts', 4);
    for (let index = 0; index < 5; index += 1) node.isEnabled('edge-on');
    await eventually(
      async () =>
        /^edge_checkouts\{[^}]*origin="edge"[^}]*\} 4$/m.test(
          (await upstream.anonymous.get('/internal-backstage/impact/metrics')).text,
        ),
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    await eventually(
      async () =>
        ((await upstream.admin.get('/api/admin/metrics/applications')).body.applications as { appName: string }[]).some(
          (app) => app.appName === 'edge-node',
        ),
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    await eventually(
      async () =>
        ((await upstream.admin.get('/api/admin/client-metrics/features/edge-on')).body.totalUsage?.[0]?.yes ?? 0) >= 5,
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(await metric(edge.url, 'bunting_edge_metrics_forwarded_total')).toMatch(/ [1-9]/);
  });

  it('stops accepting a token revoked upstream within the revalidation time', async () => {
    const doomed = (
      await upstream.admin.post('/api/admin/api-tokens', {
        tokenName: 'edge-doomed',
        type: 'frontend',
        environment: 'development',
        projects: ['*'],
      })
    ).body.secret as string;
    const sdk = httpClient(edge.url, { authorization: doomed });
    expect((await sdk.get('/api/frontend')).status).toBe(200);
    await upstream.admin.delete(`/api/admin/api-tokens/${encodeURIComponent(doomed)}`);
    await eventually(async () => (await sdk.get('/api/frontend')).status === 401, { timeoutMs: 5000, intervalMs: 50 });
    expect(
      (await httpClient(edge.url, { authorization: 'default:development.never-issued' }).get('/api/frontend')).status,
    ).toBe(401);
  });

  it('serves an edge chained behind it', async () => {
    const chained = await startTestStack({ target: 'edge', env: { ...edgeEnv(edge.url), EDGE_PERSIST_DIR: '' } });
    try {
      const answer = await httpClient(chained.url, { authorization: frontendToken }).get('/api/frontend');
      expect(answer.status).toBe(200);
      expect(answer.body.toggles.map((toggle: { name: string }) => toggle.name).sort()).toEqual([
        'edge-later',
        'edge-on',
      ]);
    } finally {
      await chained.dispose();
    }
  });

  it('is the same edge when built as deployed (npm run build:edge), and refuses to run as anything but an SDK edge', async () => {
    const built = await startServiceProcess(
      'edge',
      { ...edgeEnv(edge.url), EDGE_PERSIST_DIR: '', LOG_LEVEL: 'error' },
      {
        built: true,
      },
    );
    try {
      // The same answers as the edge it follows, run from its sources.
      const names = async (url: string, token: string, path: string, key: 'toggles' | 'features') => {
        const answer = await httpClient(url, { authorization: token }).get(path);
        expect(answer.status).toBe(200);
        return (answer.body[key] as { name: string }[]).map((flag) => flag.name).sort();
      };
      const fromSource = await names(edge.url, frontendToken, '/api/frontend', 'toggles');
      expect(fromSource).toContain('edge-on');
      expect(await names(built.url, frontendToken, '/api/frontend', 'toggles')).toEqual(fromSource);
      expect(await names(built.url, clientToken, '/api/client/features', 'features')).toEqual(
        await names(edge.url, clientToken, '/api/client/features', 'features'),
      );
      // The admin API is not in it: the path is not served.
      expect((await fetch(`${built.url}/api/admin/projects`)).status).toBe(404);
    } finally {
      await built.stop();
    }
    // The SDK edge only: the standalone edge or the cluster's frontend-api.
    await expect(startServiceProcess('all', {}, { built: true, waitFor: 'alive' })).rejects.toThrow(/exited/);
    await expect(startServiceProcess('admin-api', {}, { built: true, waitFor: 'alive' })).rejects.toThrow(/exited/);
  });

  it('keeps serving while the upstream is down, says stale, and starts again from what it persisted', async () => {
    await upstream.close();
    const sdk = httpClient(edge.url, { authorization: frontendToken });
    for (let index = 0; index < 20; index += 1) expect((await sdk.get('/api/frontend')).status).toBe(200);
    const stale = await eventually(
      async () => {
        const body = (await (await fetch(`${edge.url}/ready`)).json()) as {
          health: string;
          checks: { name: string; error?: string }[];
        };
        return body.checks.find((check) => check.name === 'upstream' && check.error?.startsWith('stale')) && body;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(stale.health).toBe('DEGRADED');

    // The edge itself restarts while the upstream is still away: it serves the persisted flags and tokens.
    await edge.close();
    const startedAt = Date.now();
    edge = await startTestStack({ target: 'edge', env: edgeEnv(proxy.url) });
    await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, { intervalMs: 20 });
    console.log(
      `edge start with persisted state and the upstream down: ready ${Date.now() - startedAt} ms after the start began`,
    );
    const offline = await httpClient(edge.url, { authorization: frontendToken }).get('/api/frontend');
    expect(offline.status).toBe(200);
    expect(offline.body.toggles.map((toggle: { name: string }) => toggle.name).sort()).toEqual([
      'edge-later',
      'edge-on',
    ]);
    expect(
      (await httpClient(edge.url, { authorization: clientToken }).get('/api/client/features')).body.features,
    ).toHaveLength(3);

    // The upstream comes back (on another port, behind the same proxy): the edge follows it again.
    restarted = await startStack({
      target: 'all',
      env: {
        ...upstream.isolation.env,
        INIT_ADMIN_API_TOKENS: upstream.adminToken,
        INIT_CLIENT_API_TOKENS: clientToken,
      },
    });
    proxy.retarget(portOf(restarted.url));
    await upstreamAdmin().post(`${base}/edge-on/environments/development/off`);
    await eventually(
      async () => {
        const answer = await httpClient(edge.url, { authorization: frontendToken }).get('/api/frontend');
        return answer.body.toggles.every((toggle: { name: string }) => toggle.name !== 'edge-on');
      },
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    await eventually(
      async () => ((await (await fetch(`${edge.url}/ready`)).json()) as { health: string }).health === 'GOOD',
      { timeoutMs: 5000 },
    );
    // An upstream that could not be reached is streamed from again once it answers, not polled from then on.
    expect(await metric(edge.url, 'bunting_edge_upstream_feeds{mode="streaming"}')).toContain(' 1');
  });

  it('restarted while its upstream runs, is sent what changed meanwhile, not every flag again', async () => {
    // Enough flags that all of them again would be many times what a resumed stream is sent.
    const names = Array.from({ length: 300 }, (_, index) => `edge-many-${index}`);
    const clientFeatures = async () =>
      (await httpClient(edge.url, { authorization: clientToken }).get('/api/client/features')).body.features as {
        name: string;
      }[];
    const held = (await clientFeatures()).length;
    const imported = await upstreamAdmin().post('/api/admin/features-batch/import', {
      project: 'default',
      environment: 'development',
      data: rolloutExport(names, 'default'),
    });
    expect(imported.status).toBe(200);
    await eventually(async () => (await clientFeatures()).length === held + 300, { timeoutMs: 10_000, intervalMs: 50 });
    // What a hydration of this scope holds, as the edge answers it (a connection straight to the upstream from here
    // would keep its close waiting).
    const everything = (await httpClient(edge.url, { authorization: clientToken }).get('/api/client/features')).text
      .length;

    await edge.close();
    await upstreamAdmin().post(base, { name: 'edge-meanwhile' });
    const before = proxy.bytesToClients();
    edge = await startTestStack({ target: 'edge', env: edgeEnv(proxy.url) });
    await eventually(async () => (await clientFeatures()).some((flag) => flag.name === 'edge-meanwhile'), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const sent = proxy.bytesToClients() - before;
    console.log(`edge restarted with ${everything} bytes of flags upstream: sent ${sent} bytes until it was current`);
    expect(await clientFeatures()).toHaveLength(held + 301);
    expect(sent).toBeLessThan(everything / 5);
    expect(await metric(edge.url, 'bunting_edge_upstream_feeds{mode="streaming"}')).toContain(' 1');
  });
});
