import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * /internal-backstage/prometheus after real traffic: the exposition parses, the counters that must move moved,
 * and no label carries a flag name, a token or a user.
 */
let stack: TestStack;
const frontendToken = 'default:development.prometheus-frontend';
const clientToken = 'default:development.prometheus-client';

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The text exposition format: `name{a="b",c="d"} value`, comments skipped. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not in the exposition format: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(): Promise<Sample[]> {
  const reply = await stack.anonymous.get('/internal-backstage/prometheus');
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toContain('text/plain');
  return parseExposition(reply.text);
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
    )
    .reduce((sum, sample) => sum + sample.value, 0);

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_FRONTEND_API_TOKENS: frontendToken, INIT_CLIENT_API_TOKENS: clientToken },
  });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'secret-launch-flag' });
  await stack.admin.post('/api/admin/projects/default/features/secret-launch-flag/environments/development/on');
}, 60_000);
afterAll(() => stack?.dispose());

describe('Prometheus metrics', () => {
  it('count requests by route pattern, SDK answers, signals by outcome, webhooks, the outbox and consumers', async () => {
    const before = await scrape();
    const frontend = httpClient(stack.url, { authorization: frontendToken });
    await eventually(async () => (await frontend.get('/api/frontend?userId=alice')).body.toggles?.length === 1);
    for (let index = 0; index < 5; index += 1) await frontend.get(`/api/frontend?userId=user-${index}`);
    await httpClient(stack.url, { authorization: clientToken }).get('/api/client/features');
    // A GET of an unknown address meets the console's page fallback ("/*"); a POST matches no route at all.
    await stack.admin.post('/api/admin/no/such/secret-launch-flag', {});

    // One signal accepted and, within the same second, one refused by the endpoint's rate limit.
    const endpoint = await stack.admin.post('/api/admin/signal-endpoints', { name: 'alerts' });
    const secret = (
      await stack.admin.post(`/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, { name: 'grafana' })
    ).body.token as string;
    const sender = httpClient(stack.url, { authorization: `Bearer ${secret}` });
    const results = [
      (await sender.post('/api/signal-endpoint/alerts', { a: 1 })).status,
      (await sender.post('/api/signal-endpoint/alerts', { a: 2 })).status,
    ];
    expect(results).toEqual([202, 429]);

    // A webhook to a closed port fails, and says so.
    await stack.admin.post('/api/admin/addons', {
      provider: 'webhook',
      enabled: true,
      events: ['feature-created'],
      parameters: { url: 'http://127.0.0.1:9/hook' },
    });
    await stack.admin.post('/api/admin/projects/default/features', { name: 'after-the-webhook' });

    const after = await eventually(async () => {
      const samples = await scrape();
      return value(samples, 'bunting_webhook_deliveries_total', { outcome: 'failed' }) >= 1 && samples;
    });
    const moved = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);
    expect(moved('bunting_signals_total', { outcome: 'rate_limited' })).toBe(1);
    expect(moved('bunting_signals_total', { outcome: 'accepted' })).toBe(1);
    expect(moved('bunting_sdk_answers_total', { api: 'frontend' })).toBeGreaterThanOrEqual(6);
    expect(moved('bunting_sdk_answers_total', { api: 'client' })).toBe(1);
    expect(
      moved('bunting_http_request_duration_seconds_count', { route: '/api/frontend', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(6);
    expect(moved('bunting_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBe(1);
    expect(moved('bunting_consumer_messages_total', { outcome: 'acked' })).toBeGreaterThan(0);
    expect(moved('bunting_credential_cache_total')).toBeGreaterThan(0);

    // Gauges read when scraped: each outbox, each durable consumer, the snapshot served, the Node process.
    const schemas = new Set(
      after.filter((sample) => sample.name === 'bunting_outbox_pending_rows').map((sample) => sample.labels.schema),
    );
    expect([...schemas].sort()).toEqual(['admin', 'insights', 'signals']);
    expect(after.some((sample) => sample.name === 'bunting_outbox_oldest_pending_age_seconds')).toBe(true);
    expect(after.filter((sample) => sample.name === 'bunting_consumer_pending_messages').length).toBeGreaterThanOrEqual(
      4,
    );
    expect(value(after, 'bunting_snapshot_revision', { environment: 'development' })).toBeGreaterThan(0);
    expect(after.some((sample) => sample.name === 'bunting_snapshot_age_seconds')).toBe(true);
    expect(after.some((sample) => sample.name === 'bunting_sdk_streams_open')).toBe(true);
    expect(after.some((sample) => sample.name === 'bunting_nodejs_eventloop_lag_seconds')).toBe(true);
    expect(after.some((sample) => sample.name === 'bunting_process_resident_memory_bytes')).toBe(true);

    // Bounded labels: route patterns, never the flag, the token, the signal secret or the user.
    const labelText = JSON.stringify(after.map((sample) => sample.labels));
    for (const leaked of [
      'secret-launch-flag',
      'after-the-webhook',
      frontendToken,
      clientToken,
      secret,
      'alice',
      'user-1',
      'grafana',
    ]) {
      expect(labelText, leaked).not.toContain(leaked);
    }
    // The shipped Grafana dashboard asks only for metrics that exist.
    const dashboard = readFileSync(new URL('../../../deploy/grafana/bunting-dashboard.json', import.meta.url), 'utf8');
    const asked = new Set(
      [...dashboard.matchAll(/bunting_[a-z_]+/g)].map(([name]) => name.replace(/_(bucket|count|sum)$/, '')),
    );
    const declared = new Set(
      [...(await stack.anonymous.get('/internal-backstage/prometheus')).text.matchAll(/^# TYPE (\S+)/gm)].map(
        ([, name]) => name,
      ),
    );
    expect([...asked].filter((name) => !declared.has(name))).toEqual([]);

    const routes = new Set(
      after
        .filter((sample) => sample.name === 'bunting_http_request_duration_seconds_count')
        .map((sample) => sample.labels.route),
    );
    for (const route of routes) expect(route === 'unmatched' || route!.startsWith('/'), route).toBe(true);
  });
});
