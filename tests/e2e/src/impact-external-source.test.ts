import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  httpClient,
  startPrivatePrometheus,
  startTestStack,
  type HttpClient,
  type TestStack,
} from '@bunting/test-stack';

/**
 * An external Prometheus-compatible source of impact metrics: Debian's Prometheus scrapes Bunting's own
 * /internal-backstage/impact/metrics, and Bunting's query API reads it back through Prometheus' HTTP API. When the
 * source is down its queries answer 503 at once, and the internal metrics keep answering.
 */
let stack: TestStack;
let client: HttpClient;
let prometheus: Awaited<ReturnType<typeof startPrivatePrometheus>>;
const clientToken = 'default:development.external-impact';

const post = (impactMetrics: unknown[]) =>
  client.post('/api/client/metrics', {
    appName: 'thermostat',
    bucket: { start: 0, stop: 0, toggles: {} },
    impactMetrics,
  });
const query = (params: Record<string, string>) =>
  stack.admin.get(`/api/admin/impact-metrics/?${new URLSearchParams(params)}`);
const lastValue = (answer: { body: { series?: { data: [number, string][] }[] } }) =>
  answer.body.series?.[0]?.data.at(-1)?.[1];

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  client = httpClient(stack.url, { authorization: clientToken });
  expect(
    (
      await post([
        {
          name: 'temperature',
          help: 'Degrees',
          type: 'gauge',
          samples: [{ labels: { room: 'kitchen' }, value: 21.5 }],
        },
        {
          name: 'heating_cycles',
          help: 'Cycles',
          type: 'counter',
          samples: [{ labels: { room: 'kitchen' }, value: 5 }],
        },
      ])
    ).status,
  ).toBe(202);
  await eventually(async () =>
    (await stack.anonymous.get('/internal-backstage/impact/metrics')).text.includes('temperature{'),
  );
  prometheus = await startPrivatePrometheus(new URL(stack.url).host, '/internal-backstage/impact/metrics');
}, 60_000);

afterAll(async () => {
  await prometheus?.dispose();
  await stack?.dispose();
});

describe('an external Prometheus as the source', () => {
  it('is checked, saved with its password masked, and lists its metrics beside the internal ones', async () => {
    const checked = await stack.admin.post('/api/admin/impact-metrics/external-source/validate', {
      url: prometheus.url,
    });
    expect(checked.status).toBe(200);
    await eventually(
      async () =>
        (
          await stack.admin.post('/api/admin/impact-metrics/external-source/validate', { url: prometheus.url })
        ).body.metrics.includes('unleash_gauge_temperature'),
      { timeoutMs: 20_000 },
    );
    const unreachable = await stack.admin.post('/api/admin/impact-metrics/external-source/validate', {
      url: 'http://127.0.0.1:9',
    });
    expect(unreachable.body).toMatchObject({ metrics: [], error: expect.stringContaining('cannot be read') });

    const withPassword = new URL(prometheus.url);
    withPassword.username = 'reader';
    withPassword.password = 's3cret';
    const saved = await stack.admin.post('/api/admin/impact-metrics/external-source', {
      enabled: true,
      url: withPassword.href,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.url).toContain('reader:********@');
    expect(saved.body.url).not.toContain('s3cret');
    // Sent back as shown, the password is kept.
    expect((await stack.admin.post('/api/admin/impact-metrics/external-source', saved.body)).body).toEqual(saved.body);
    expect((await stack.admin.get('/api/admin/impact-metrics/external-source')).body).toEqual(saved.body);
    expect((await stack.admin.post('/api/admin/impact-metrics/external-source', { enabled: true })).status).toBe(400);

    const metadata = (await stack.admin.get('/api/admin/impact-metrics/metadata')).body.metrics;
    expect(metadata).toContainEqual({
      name: 'unleash_gauge_temperature',
      displayName: 'temperature',
      help: 'Degrees',
      type: 'gauge',
      source: 'internal',
    });
    expect(metadata).toContainEqual({
      name: 'unleash_gauge_temperature',
      displayName: 'temperature',
      help: '',
      type: 'gauge',
      source: 'external',
    });
  });

  it('answers queries with source=external from Prometheus, label values included', async () => {
    const external = {
      metricName: 'unleash_gauge_temperature',
      range: 'hour',
      aggregationMode: 'avg',
      source: 'external',
    };
    const answer = await eventually(
      async () => {
        const reply = await query(external);
        return lastValue(reply) === '21.5' ? reply : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(answer.body).toMatchObject({
      step: '1m',
      labels: { room: ['kitchen'], origin: ['sdk'], metric_type: ['gauge'] },
    });
    expect(answer.body.debug.query).toBe('avg(unleash_gauge_temperature{})');
    const kitchen = await query({ ...external, labels: JSON.stringify({ room: ['kitchen'] }) });
    expect(lastValue(kitchen)).toBe('21.5');
    expect((await query({ ...external, labels: JSON.stringify({ room: ['attic'] }) })).body.series).toEqual([]);
    // A counter's increase, as Prometheus computes it over the step (it extrapolates, so only its presence is checked).
    expect(
      (
        await post([
          {
            name: 'heating_cycles',
            help: 'Cycles',
            type: 'counter',
            samples: [{ labels: { room: 'kitchen' }, value: 3 }],
          },
        ])
      ).status,
    ).toBe(202);
    await eventually(
      async () =>
        Number(
          lastValue(
            await query({
              metricName: 'unleash_counter_heating_cycles',
              range: 'hour',
              aggregationMode: 'count',
              source: 'external',
            }),
          ) ?? 0,
        ) > 0,
      { timeoutMs: 20_000 },
    );
  });

  it('answers 503 at once while the source is down, and keeps answering the internal metrics', async () => {
    await prometheus.stop();
    try {
      const started = Date.now();
      const down = await query({
        metricName: 'unleash_gauge_temperature',
        range: 'hour',
        aggregationMode: 'avg',
        source: 'external',
      });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBeTruthy();
      expect(down.body).toMatchObject({
        name: 'ServiceUnavailableError',
        message: expect.stringContaining('external impact metrics source'),
        id: expect.any(String),
      });
      expect(Date.now() - started).toBeLessThan(6000);
      expect(
        lastValue(await query({ metricName: 'unleash_gauge_temperature', range: 'hour', aggregationMode: 'avg' })),
      ).toBe('21.5');
      const metadata = await stack.admin.get('/api/admin/impact-metrics/metadata');
      expect(metadata.status).toBe(200);
      expect(metadata.body.metrics.every((metric: { source: string }) => metric.source === 'internal')).toBe(true);
    } finally {
      await prometheus.start();
    }
  });

  it('takes its address from EXTERNAL_PROMETHEUS_IMPACT_METRICS_API until an admin sets one', async () => {
    const configured = await startTestStack({ env: { EXTERNAL_PROMETHEUS_IMPACT_METRICS_API: prometheus.url } });
    try {
      expect((await configured.admin.get('/api/admin/impact-metrics/external-source')).body).toEqual({
        enabled: true,
        url: `${prometheus.url}/`,
      });
    } finally {
      await configured.dispose();
    }
  });
});
