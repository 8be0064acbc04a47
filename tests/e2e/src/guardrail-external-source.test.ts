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
 * A guardrail reading its metric from the external Prometheus-compatible source: Debian's Prometheus scrapes the
 * application's counters (here Bunting's own exposition, where the SDK's flag label is kept), the guardrail compares
 * the two sides from Prometheus with the exposures from the SDK metrics, and turns the flag off on harm. A source that
 * cannot be read makes the look unreadable (said in lastError) and changes nothing.
 */
let stack: TestStack;
let client: HttpClient;
let prometheus: Awaited<ReturnType<typeof startPrivatePrometheus>>;
const clientToken = 'default:development.external-guardrail';
const flag = '/api/admin/projects/default/features/new-payments';

/** What an SDK reports each second: exposures of both sides and failed payments labelled with the side. */
const report = (yes: number, no: number, errors: { enabled: number; disabled: number }) =>
  client.post('/api/client/metrics', {
    appName: 'payments-app',
    bucket: {
      start: new Date().toISOString(),
      stop: new Date().toISOString(),
      toggles: { 'new-payments': { yes, no } },
    },
    impactMetrics: [
      {
        name: 'payment_errors',
        help: 'Payments that failed',
        type: 'counter',
        samples: [
          { labels: { 'new-payments': 'enabled' }, value: errors.enabled },
          { labels: { 'new-payments': 'disabled' }, value: errors.disabled },
        ],
      },
    ],
  });
const safeguard = async () =>
  (await stack.admin.get(flag)).body.environments.find((one: { name: string }) => one.name === 'development')
    .safeguards[0] as {
    lastError: string | null;
    lastComparison: { decision: string; control: { units: number }; treatment: { units: number } } | null;
  };
const enabled = async () =>
  (await stack.admin.get(flag)).body.environments.find((one: { name: string }) => one.name === 'development')
    .enabled as boolean;

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_CLIENT_API_TOKENS: clientToken, SAFEGUARD_EVALUATION_MS: '300', GUARDRAIL_SETTLE_MS: '0' },
  });
  client = httpClient(stack.url, { authorization: clientToken });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'new-payments', type: 'release' });
  await stack.admin.post(`${flag}/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'default', groupId: 'new-payments' },
    constraints: [],
  });
  await stack.admin.post(`${flag}/environments/development/on`);
  expect((await report(0, 0, { enabled: 0, disabled: 0 })).status).toBe(202);
  await eventually(async () =>
    (await stack.anonymous.get('/internal-backstage/impact/metrics')).text.includes('payment_errors'),
  );
  prometheus = await startPrivatePrometheus(new URL(stack.url).host, '/internal-backstage/impact/metrics');
}, 60_000);

afterAll(async () => {
  await prometheus?.dispose();
  await stack?.dispose();
});

describe('a guardrail on the external source', () => {
  it('cannot be read while the source is down, and changes nothing then', async () => {
    await stack.admin.post('/api/admin/impact-metrics/external-source', { enabled: true, url: 'http://127.0.0.1:9' });
    const set = await stack.admin.put(`${flag}/environments/development/safeguards`, {
      impactMetric: {
        metricName: 'unleash_counter_payment_errors',
        timeRange: 'hour',
        aggregationMode: 'count',
        labelSelectors: {},
        source: 'external',
      },
      comparison: { harm: 'increase', minimumSample: 200 },
    });
    expect(set.status).toBe(200);
    // The first look takes the baseline: it is the one that needs the source.
    await eventually(async () => (await safeguard()).lastError?.includes('cannot be read') === true, {
      timeoutMs: 15_000,
    });
    expect(await enabled()).toBe(true);
  });

  it('turns the flag off when Prometheus shows the users who get the change failing more', async () => {
    await stack.admin.post('/api/admin/impact-metrics/external-source', { enabled: true, url: prometheus.url });
    await eventually(async () => (await safeguard()).lastError === null, { timeoutMs: 15_000 });
    // Each second, 200 evaluations a side: the change fails 4 in 10, the control 1 in 10.
    let reporting = true;
    const load = (async () => {
      while (reporting) {
        await report(200, 200, { enabled: 80, disabled: 20 });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();
    try {
      await eventually(async () => !(await enabled()), { timeoutMs: 45_000, intervalMs: 500 });
    } finally {
      reporting = false;
      await load;
    }
    const reading = (await safeguard()).lastComparison!;
    expect(reading.decision).toBe('harm');
    expect(reading.treatment.units).toBeGreaterThanOrEqual(200);
    // The event log consumes the outbox on its own: the event arrives there soon after the flag is off.
    const disabled = await eventually(async () =>
      (
        (await stack.admin.get('/api/admin/search/events?type=IS:feature-environment-disabled&limit=10')).body
          .events as { featureName: string }[]
      ).find((event) => event.featureName === 'new-payments'),
    );
    expect(disabled.featureName).toBe('new-payments');
  }, 90_000);
});
