import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRedis, connectRedis } from '@bunting/platform';
import { eventually, freePort, httpClient, startDelayProxy, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * The standalone edge against an upstream that misbehaves on purpose: a stream of garbage, a stream cut mid-message,
 * an answer that is not JSON, a 10 MB payload, and tokens the upstream refuses. The edge must keep serving what it
 * holds, never crash, and never answer an SDK with a 5xx because of it.
 */
const good = 'default:development.bad-upstream-good';
const frontend = 'default:development.bad-upstream-frontend';
const refused = 'default:development.bad-upstream-refused';
const turnsBad = 'default:production.bad-upstream-turns-bad';

type Mode = {
  stream: 'garbage' | 'truncated' | 'none' | 'ok';
  delta: boolean;
  features: 'ok' | 'garbage' | 'big';
  badToken: boolean;
  metricsDown: boolean;
};
const mode: Mode = { stream: 'garbage', delta: false, features: 'ok', badToken: false, metricsDown: true };
/** What the upstream's stream and delta endpoint serve when they work: a revision and its flags. */
const live = {
  revision: 1,
  names: ['steady-one', 'steady-two'],
  added: [] as { revision: number; name: string }[],
  hydrations: 0,
};
const streams = new Set<ServerResponse>();
/** The flag names of every bulk metrics post the upstream accepted. */
const forwarded: string[] = [];
let bulkInFlight = 0;
/** Every /edge/validate request the upstream received: the secrets each asked about. */
const validations: string[][] = [];
let upstream: Server;
let upstreamUrl: string;
const edges: TestStack[] = [];

const flag = (name: string, description = '') => ({
  name,
  project: 'default',
  enabled: true,
  type: 'release',
  description,
  strategies: [{ name: 'default', constraints: [], parameters: {} }],
  variants: [],
});
const okPayload = JSON.stringify({ version: 2, features: [flag('steady-one'), flag('steady-two')], segments: [] });
// 10,000 flags with long descriptions: about 10 MB of JSON.
const bigPayload = JSON.stringify({
  version: 2,
  features: Array.from({ length: 10_000 }, (_, index) => flag(`big-${index}`, 'x'.repeat(900))),
  segments: [],
});

const hydration = () => ({
  type: 'hydration',
  eventId: live.revision,
  features: live.names.map((name) => flag(name)),
  segments: [],
});

/** A flag added upstream: streams are told at once, the delta endpoint answers it from now on. */
function addFlag(name: string) {
  live.revision += 1;
  live.names.push(name);
  live.added.push({ revision: live.revision, name });
  for (const stream of streams)
    stream.write(
      `event: unleash-updated\nid: ${live.revision}\ndata: ${JSON.stringify({ events: [{ type: 'feature-updated', eventId: live.revision, feature: flag(name) }] })}\n\n`,
    );
}

function json(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

beforeAll(async () => {
  expect(bigPayload.length).toBeGreaterThan(10_000_000);
  upstream = createServer((request, response) => {
    const token = request.headers.authorization;
    const path = (request.url ?? '').split('?')[0];
    if (path === '/edge/validate') {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const asked = (JSON.parse(body) as { tokens: string[] }).tokens;
        validations.push(asked);
        const known = [
          { token: good, type: 'client', environment: 'development', projects: ['*'] },
          { token: frontend, type: 'frontend', environment: 'development', projects: ['*'] },
          { token: turnsBad, type: 'client', environment: 'production', projects: ['*'] },
        ].filter((entry) => asked.includes(entry.token));
        json(response, 200, JSON.stringify({ tokens: known }));
      });
      return;
    }
    if (token !== good && token !== frontend && !(token === turnsBad && !mode.badToken))
      return json(response, 401, '{"name":"AuthenticationRequired"}');
    if (path === '/api/client/streaming') {
      if (mode.stream === 'none') return json(response, 404, '{}');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (mode.stream === 'ok') {
        // Resumed (Last-Event-ID): the changes since, as Unleash's and Bunting's streams send them; else everything.
        const since = Number(request.headers['last-event-id']);
        const events =
          Number.isInteger(since) && since >= 1
            ? live.added
                .filter((entry) => entry.revision > since)
                .map((entry) => ({ type: 'feature-updated', eventId: entry.revision, feature: flag(entry.name) }))
            : [hydration()];
        if (!(since >= 1)) live.hydrations += 1;
        response.write(`event: unleash-connected\nid: ${live.revision}\ndata: ${JSON.stringify({ events })}\n\n`);
        streams.add(response);
        response.on('close', () => streams.delete(response));
      } else if (mode.stream === 'garbage') {
        response.write(
          'event: unleash-connected\nid: 1\ndata: {"events": [{"type": "hydration", "eventId": 1, "feat\n\n',
        );
        response.end();
      } else {
        // Half of a message, then the connection dies.
        response.write(`event: unleash-connected\nid: 1\ndata: ${okPayload.slice(0, 40)}`);
        setTimeout(() => response.destroy(), 20);
      }
      return;
    }
    if (path === '/api/client/delta') {
      if (!mode.delta) return json(response, 404, '{}');
      if (request.headers['if-none-match'] === `"${live.revision}"`) return response.writeHead(304).end();
      return json(response, 200, JSON.stringify({ events: [hydration()] }), { etag: `"${live.revision}"` });
    }
    if (path === '/api/client/metrics/bulk') {
      if (mode.metricsDown) {
        // Slow to refuse: metrics that arrive at the edge meanwhile are newer than the batch on its way.
        bulkInFlight += 1;
        setTimeout(() => {
          bulkInFlight -= 1;
          json(response, 503, '{}', { 'retry-after': '1' });
        }, 1000);
        return;
      }
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        forwarded.push(
          ...(JSON.parse(body) as { metrics: { featureName: string }[] }).metrics.map((entry) => entry.featureName),
        );
        response.writeHead(202).end();
      });
      return;
    }
    if (path === '/api/frontend') return json(response, 200, '{"toggles":[]}');
    if (path === '/api/client/features') {
      if (mode.features === 'garbage')
        return response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Bad gateway, but 200</html>');
      const body = mode.features === 'big' ? bigPayload : okPayload;
      return json(response, 200, body, { etag: `"${mode.features}"` });
    }
    json(response, 404, '{}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const stream of streams) stream.end();
  for (const edge of edges) await edge.dispose();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()) ?? resolve());
});

async function startEdge(env: Record<string, string> = {}) {
  const edge = await startTestStack({
    target: 'edge',
    env: {
      UPSTREAM_URL: upstreamUrl,
      EDGE_TOKENS: good,
      EDGE_POLL_MS: '100',
      EDGE_TOKEN_REVALIDATE_MS: '200',
      EDGE_PROBE_MS: '60000',
      ...env,
    },
  });
  edges.push(edge);
  return edge;
}

const names = async (url: string, token = frontend) => {
  const answer = await httpClient(url, { authorization: token }).get('/api/frontend');
  expect(answer.status).toBe(200);
  return (answer.body.toggles as { name: string }[]).map((toggle) => toggle.name).sort();
};

describe('the edge against an upstream that misbehaves', () => {
  it('leaves a stream of garbage or one cut mid-message for polling, and serves what polling gives', async () => {
    for (const stream of ['garbage', 'truncated'] as const) {
      mode.stream = stream;
      const edge = await startEdge();
      await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, { intervalMs: 50 });
      expect(await names(edge.url)).toEqual(['steady-one', 'steady-two']);
      const exposition = await (await fetch(`${edge.url}/internal-backstage/prometheus`)).text();
      expect(exposition).toContain('bunting_edge_upstream_feeds{mode="polling"} 1');
    }
  });

  it('keeps the flags it holds when the upstream answers something that is not JSON, then takes a 10 MB payload', async () => {
    const edge = edges[edges.length - 1]!;
    mode.features = 'garbage';
    // Several polls of garbage: the flags held are served throughout.
    for (let index = 0; index < 10; index += 1) {
      expect(await names(edge.url)).toEqual(['steady-one', 'steady-two']);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    mode.features = 'big';
    await eventually(async () => (await names(edge.url)).length === 10_000, { timeoutMs: 20_000, intervalMs: 200 });
    expect(
      (await httpClient(edge.url, { authorization: good }).get('/api/client/features')).body.features,
    ).toHaveLength(10_000);
    mode.features = 'ok';
    await eventually(async () => (await names(edge.url)).length === 2, { timeoutMs: 10_000, intervalMs: 100 });
  });

  it('refuses a payload over EDGE_UPSTREAM_MAX_BYTES and keeps what it held', async () => {
    mode.stream = 'none';
    const edge = await startEdge({ EDGE_UPSTREAM_MAX_BYTES: String(5 * 1024 * 1024) });
    await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, { intervalMs: 50 });
    mode.features = 'big';
    for (let index = 0; index < 10; index += 1) {
      expect(await names(edge.url)).toEqual(['steady-one', 'steady-two']);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    mode.features = 'ok';
  });

  it('does not serve tokens the upstream refuses, at start or later', async () => {
    const edge = await startEdge({ EDGE_TOKENS: `${good},${refused},${turnsBad}` });
    await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, { intervalMs: 50 });
    expect((await httpClient(edge.url, { authorization: refused }).get('/api/client/features')).status).toBe(401);
    const later = httpClient(edge.url, { authorization: turnsBad });
    expect((await later.get('/api/client/features')).status).toBe(200);
    mode.badToken = true;
    await eventually(async () => (await later.get('/api/client/features')).status === 401, {
      timeoutMs: 5000,
      intervalMs: 50,
    });
    // The other token's flags are served as before.
    expect(await names(edge.url)).toEqual(['steady-one', 'steady-two']);
  });

  it('holds SDK metrics while the upstream does not take them, within EDGE_METRICS_LIMIT (oldest dropped, counted), and forwards them once it does', async () => {
    mode.stream = 'none';
    const edge = await startEdge({ EDGE_METRICS_LIMIT: '50', EDGE_METRICS_INTERVAL_MS: '100' });
    await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, { intervalMs: 50 });
    const sdk = httpClient(edge.url, { authorization: good });
    const now = new Date().toISOString();
    const post = async (batch: number) => {
      const toggles = Object.fromEntries(
        Array.from({ length: 25 }, (_, index) => [`counted-${batch * 25 + index}`, { yes: 1, no: 0 }]),
      );
      expect(
        (
          await sdk.post('/api/client/metrics', {
            appName: 'bad-upstream-app',
            instanceId: 'i1',
            bucket: { start: now, stop: now, toggles },
          })
        ).status,
      ).toBe(202);
    };
    await post(0);
    await post(1);
    // The first fifty are on their way upstream (which refuses them slowly) when the next fifty come.
    await eventually(async () => bulkInFlight > 0, { timeoutMs: 5000, intervalMs: 10 });
    await post(2);
    await post(3);
    const exposition = async () => (await fetch(`${edge.url}/internal-backstage/prometheus`)).text();
    await eventually(async () => /bunting_edge_metrics_dropped_total\{reason="full"\} 50/.test(await exposition()), {
      timeoutMs: 5000,
      intervalMs: 50,
    });
    expect(await exposition()).toMatch(/bunting_edge_metrics_pending (50|49)/);
    mode.metricsDown = false;
    await eventually(async () => forwarded.filter((name) => name.startsWith('counted-')).length >= 50, {
      timeoutMs: 5000,
      intervalMs: 50,
    });
    const kept = forwarded
      .filter((name) => name.startsWith('counted-'))
      .map((name) => Number(name.slice('counted-'.length)))
      .sort((a, b) => a - b);
    // The newest fifty were kept: the oldest went first.
    expect(kept[0]).toBeGreaterThanOrEqual(50);
    expect(new Set(kept).size).toBe(kept.length);
  });

  it('follows by the delta endpoint when the upstream has no stream, and by the stream once it offers one', async () => {
    mode.stream = 'none';
    mode.delta = true;
    const edge = await startEdge({ EDGE_PROBE_MS: '300' });
    await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, { intervalMs: 50 });
    const feeds = async () =>
      (await (await fetch(`${edge.url}/internal-backstage/prometheus`)).text())
        .split('\n')
        .filter((line) => line.startsWith('bunting_edge_upstream_feeds'))
        .join(' ');
    expect(await feeds()).toContain('mode="delta"} 1');
    addFlag('by-delta');
    await eventually(async () => (await names(edge.url)).includes('by-delta'), { timeoutMs: 5000, intervalMs: 50 });
    mode.stream = 'ok';
    await eventually(async () => (await feeds()).includes('mode="streaming"} 1'), { timeoutMs: 5000, intervalMs: 50 });
    addFlag('by-stream');
    await eventually(async () => (await names(edge.url)).includes('by-stream'), { timeoutMs: 5000, intervalMs: 20 });
    // The stream closed under it (a proxy's idle timeout, an upstream restart): it resumes where it was, told only
    // of what changed meanwhile, without asking for everything again.
    const hydrations = live.hydrations;
    for (const stream of streams) stream.destroy();
    addFlag('while-away');
    await eventually(async () => (await names(edge.url)).includes('while-away'), { timeoutMs: 5000, intervalMs: 20 });
    expect(live.hydrations).toBe(hydrations);
    mode.delta = false;
  });

  it('says why it is not ready when it has neither an upstream answer nor persisted state', async () => {
    const edge = await startEdge({ UPSTREAM_URL: `http://127.0.0.1:${await freePort()}` });
    const ready = await fetch(`${edge.url}/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { checks: { name: string; ok: boolean; error?: string }[] };
    expect(body.checks.find((check) => check.name === 'edge-flags')?.error).toMatch(
      /has not answered and no state was persisted/,
    );
    // An SDK asking meanwhile gets a 401 for a token it cannot check, never a hang.
    expect((await httpClient(edge.url, { authorization: frontend }).get('/api/frontend')).status).toBe(401);
  });

  it('keeps its flags and tokens in Redis (EDGE_REDIS_URL) and starts from them while the upstream is away', async () => {
    mode.stream = 'none';
    const prefix = `bunting-edge-test-${process.pid}-${Date.now()}:`;
    const redisEnv = { EDGE_REDIS_URL: 'redis://127.0.0.1:6379', EDGE_REDIS_PREFIX: prefix };
    const first = await startEdge(redisEnv);
    await eventually(async () => (await fetch(`${first.url}/ready`)).status === 200, { intervalMs: 50 });
    expect(await names(first.url)).toContain('steady-one');
    await first.close();
    const second = await startEdge({ ...redisEnv, UPSTREAM_URL: `http://127.0.0.1:${await freePort()}` });
    await eventually(async () => (await fetch(`${second.url}/ready`)).status === 200, { intervalMs: 50 });
    expect(await names(second.url)).toContain('steady-one');
    const redis = await connectRedis('redis://127.0.0.1:6379');
    try {
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      await closeRedis(redis);
    }
  });

  it('follows a configured token by the scope its text gives while the upstream is away, then by the one the upstream answers', async () => {
    mode.stream = 'none';
    // The upstream cannot be reached at start: the proxy leads nowhere yet.
    const proxy = await startDelayProxy(await freePort(), 0);
    try {
      const edge = await startEdge({ UPSTREAM_URL: proxy.url });
      const feeds = async () =>
        (await (await fetch(`${edge.url}/internal-backstage/prometheus`)).text())
          .split('\n')
          .filter((line) => line.startsWith('bunting_edge_upstream_feeds'))
          .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
      // "default:development..." is read as the default project; the upstream says the token sees every project.
      await eventually(async () => (await feeds()) === 1, { intervalMs: 50 });
      // An SDK asking meanwhile for flags the edge never had gets a 503 to retry, at once: nothing can come.
      const asked = Date.now();
      const away = await httpClient(edge.url, { authorization: good }).get('/api/client/features');
      expect(away.status).toBe(503);
      expect(away.headers.get('retry-after')).toBeTruthy();
      expect(Date.now() - asked).toBeLessThan(5000);
      proxy.retarget(Number(new URL(upstreamUrl).port));
      await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, {
        timeoutMs: 5000,
        intervalMs: 50,
      });
      await eventually(async () => (await names(edge.url)).includes('steady-one'), { timeoutMs: 5000, intervalMs: 50 });
      // Once the upstream validated it (the edge's own /edge/validate shows the scope it keeps), one feed follows the
      // token: the guessed scope's was stopped, not left running beside it.
      const scope = async () =>
        (await httpClient(edge.url).post('/edge/validate', { tokens: [good] })).body.tokens[0]?.projects;
      await eventually(async () => (await scope())?.[0] === '*', { timeoutMs: 5000, intervalMs: 50 });
      expect(await feeds()).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('asks the upstream about an unknown token at most once an interval, in one request per batch, within a rate', async () => {
    mode.stream = 'none';
    const edge = await startEdge({ EDGE_TOKEN_REVALIDATE_MS: '60000', EDGE_UNKNOWN_TOKENS_PER_SECOND: '100' });
    await eventually(async () => (await fetch(`${edge.url}/ready`)).status === 200, { intervalMs: 50 });
    const anyone = httpClient(edge.url);
    const random = (count: number, tag: string) =>
      Array.from(
        { length: count },
        (_, index) => `default:development.${tag}-${index}-${Math.random().toString(36).slice(2)}`,
      );
    // Other edges of this file follow the same upstream (and revalidate their own tokens): count what this one asks.
    const mine = (list: string[]) => list.some((secret) => secret.includes('.probe-') || secret.includes('.flood-'));
    const requests = () => validations.slice(before).filter(mine);
    const asked = () => requests().flat();
    let before = validations.length;

    // 50 random tokens in one POST: one request upstream, each secret once.
    const fifty = random(50, 'probe');
    expect((await anyone.post('/edge/validate', { tokens: fifty })).body.tokens).toEqual([]);
    expect(requests().length).toBe(1);
    expect(asked().sort()).toEqual([...fifty].sort());

    // The same again, from several callers at once, and through the SDK routes: nothing more upstream.
    before = validations.length;
    await Promise.all(Array.from({ length: 10 }, () => anyone.post('/edge/validate', { tokens: fifty })));
    for (const secret of fifty.slice(0, 10))
      expect((await httpClient(edge.url, { authorization: secret }).get('/api/frontend')).status).toBe(401);
    expect(requests().length).toBe(0);

    // A flood of new ones: at most the rate a second reaches the upstream, whatever the batch size.
    before = validations.length;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 4 }, (_, caller) =>
        anyone.post('/edge/validate', { tokens: random(1000, `flood-${caller}`) }),
      ),
    );
    const seconds = Math.floor((Date.now() - started) / 1000) + 1;
    expect(asked().length).toBeLessThanOrEqual(100 * (seconds + 1));
    expect(requests().length).toBeLessThanOrEqual(seconds + 1);
    // The known token still works through all of it.
    expect((await httpClient(edge.url, { authorization: good }).get('/api/client/features')).status).toBe(200);
  });
});
