import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Unleash } from 'unleash-client';
import { eventually, loginAs, startTestStack, type TestStack, stopUnleashSdk } from '@bunting/test-stack';

/**
 * An experiment on a flag's variants end to end with the real Node SDK: the application asks for the variant of
 * each user and counts checkouts and payment errors with the flag in their flag context; green converts more often
 * than blue, errors are the same. The results say so in figures and words, and stopping records the decision in the
 * flag's lifecycle.
 */
let stack: TestStack;
let sdk: Unleash;
const clientToken = 'default:development.experiment-sdk';
const flags = '/api/admin/projects/default/features';
const flag = `${flags}/checkout-colour`;
type Results = {
  sampleRatio: { pValue: number; mismatch: boolean } | null;
  minimumSampleReached: boolean;
  summary: string;
  metrics: {
    metricName: string;
    role: string;
    arms: { variant: string; exposures: number; units: number; mean: number }[];
    comparisons: {
      variant: string;
      verdict: string;
      effect: number;
      chanceToWin: number;
      adjustedPValue: number;
      summary: string;
    }[];
    overTime: { at: string; variant: string; effect: number }[];
  }[];
};

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  await stack.admin.post(flags, { name: 'checkout-colour', type: 'experiment' });
  await stack.admin.post(`${flag}/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'checkout-colour' },
    constraints: [],
  });
  const variants = await stack.admin.put(`${flag}/environments/development/variants`, [
    { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
    { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
  ]);
  expect(variants.status).toBe(200);
  await stack.admin.post(`${flag}/environments/development/on`);
  await stack.admin.post(flags, { name: 'plain-flag' });
  sdk = new Unleash({
    url: `${stack.url}/api/`,
    appName: 'shop',
    customHeaders: { Authorization: clientToken },
    refreshInterval: 100,
    metricsInterval: 200,
  });
  sdk.on('error', () => undefined);
  sdk.impactMetrics.defineCounter('checkouts', 'Checkouts completed');
  sdk.impactMetrics.defineCounter('payment_errors', 'Payments that failed');
  await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));
}, 60_000);

afterAll(async () => {
  stopUnleashSdk(sdk);
  await stack?.dispose();
});

describe('an experiment on variants', () => {
  let id: string;

  it('starts on a flag with variants, and refuses what cannot be an experiment', async () => {
    const body = {
      name: 'Green checkout button',
      environment: 'development',
      hypothesis: 'A green button sells more',
      controlVariant: 'blue',
      metrics: [
        { metricName: 'checkouts', role: 'primary', better: 'increase' },
        { metricName: 'payment_errors', role: 'guardrail', better: 'decrease' },
      ],
      minimumSample: 500,
    };
    const started = await stack.admin.post(`${flag}/experiments`, body);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      name: 'Green checkout button',
      status: 'running',
      method: 'sequential',
      correction: 'holm',
      alpha: 0.05,
      decision: null,
    });
    id = started.body.id;
    const refused: [string, unknown, number][] = [
      [`${flag}/experiments`, body, 409],
      [`${flag}/experiments`, { ...body, environment: 'production' }, 400],
      [`${flag}/experiments`, { ...body, controlVariant: 'red' }, 400],
      [`${flag}/experiments`, { ...body, metrics: [{ ...body.metrics[0], role: 'secondary' }] }, 400],
      [`${flag}/experiments`, { ...body, extra: 1 }, 400],
      [`${flags}/plain-flag/experiments`, body, 400],
    ];
    for (const [path, sent, status] of refused) {
      const answer = await stack.admin.post(path, sent);
      expect(answer.status, JSON.stringify(sent)).toBe(status);
      expect(answer.body.message).toEqual(expect.any(String));
    }
    const bySdk = await stack.anonymous.post(`${flag}/experiments`, body, { authorization: clientToken });
    expect([401, 403]).toContain(bySdk.status);
    expect((await stack.admin.get(`${flag}/experiments`)).body.experiments).toHaveLength(1);
  });

  it('reads green beating blue on checkouts from the SDK, with the guardrail unharmed, in figures and words', async () => {
    const served = { blue: 0, green: 0 };
    for (let user = 0; user < 4000; user += 1) {
      const context = { userId: `shopper-${user}` };
      const variant = sdk.getVariant('checkout-colour', context).name as 'blue' | 'green';
      served[variant] += 1;
      const labelled = { flagNames: ['checkout-colour'], context };
      // Green converts three in ten, blue two in ten; one in ten payments fails on both.
      if (served[variant] % 10 < (variant === 'green' ? 3 : 2))
        sdk.impactMetrics.incrementCounter('checkouts', 1, labelled);
      if (served[variant] % 10 === 0) sdk.impactMetrics.incrementCounter('payment_errors', 1, labelled);
    }
    expect(served.blue + served.green).toBe(4000);
    let results!: Results;
    await eventually(
      async () => {
        results = (await stack.admin.get(`${flag}/experiments/${id}`)).body;
        // Both metrics read from every user: the guardrail's comparison too, not only the primary's.
        return (
          results.metrics.length === 2 &&
          results.metrics.every(
            (metric) =>
              metric.arms.reduce((sum, arm) => sum + arm.exposures, 0) >= 4000 && metric.comparisons.length === 1,
          )
        );
      },
      { timeoutMs: 20_000 },
    );
    const [checkouts, errors] = results.metrics;
    expect(checkouts!.arms.map((arm) => arm.variant)).toEqual(['blue', 'green']);
    expect(checkouts!.arms.find((arm) => arm.variant === 'green')!.mean).toBeCloseTo(0.3, 2);
    expect(checkouts!.arms.find((arm) => arm.variant === 'blue')!.mean).toBeCloseTo(0.2, 2);
    const green = checkouts!.comparisons[0]!;
    expect(green).toMatchObject({ variant: 'green', verdict: 'better' });
    expect(green.effect).toBeCloseTo(0.5, 1);
    expect(green.chanceToWin).toBeGreaterThan(0.99);
    expect(green.summary).toMatch(
      /^green is better on checkouts: (49|50)(\.\d+)? % higher than the control, beyond chance/,
    );
    expect(errors!.comparisons[0]).toMatchObject({ variant: 'green', verdict: 'inconclusive' });
    expect(results.sampleRatio?.mismatch).toBe(false);
    expect(results.minimumSampleReached).toBe(true);
    expect(results.summary).toBe('green beats the control on the primary metric.');
    expect(checkouts!.overTime.length).toBeGreaterThan(0);
  });

  it('lets a viewer read the results but neither start nor stop one, and the SCIM token reach none', async () => {
    await stack.admin.post('/api/admin/user-admin', {
      username: 'exp-viewer',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const viewer = await loginAs(stack.url, 'exp-viewer', 'a-long-password');
    expect((await viewer.get(`${flag}/experiments/${id}`)).status).toBe(200);
    const start = await viewer.post(`${flag}/experiments`, {
      name: 'Mine',
      environment: 'development',
      controlVariant: 'blue',
      metrics: [{ metricName: 'checkouts', role: 'primary', better: 'increase' }],
    });
    expect(start.status).toBe(403);
    expect((await viewer.post(`${flag}/experiments/${id}/stop`, { outcome: 'discarded' })).status).toBe(403);
    // The SCIM token manages people, nothing else: it reads and changes no experiment.
    await stack.admin.post('/api/admin/scim-settings', { enabled: true });
    const scimToken = (await stack.admin.post('/api/admin/scim-settings/generate-new-token')).body.token as string;
    const scim = stack.anonymous.withHeaders({ authorization: `Bearer ${scimToken}` });
    expect([401, 403]).toContain((await scim.get(`${flag}/experiments/${id}`)).status);
    expect([401, 403]).toContain((await scim.post(`${flag}/experiments/${id}/stop`, { outcome: 'discarded' })).status);
    expect((await stack.admin.get(`${flag}/experiments`)).body.experiments[0]).toMatchObject({ status: 'running' });
  });

  it('stops with the variant kept, recorded in the event log and the flag lifecycle', async () => {
    const stopped = await stack.admin.post(`${flag}/experiments/${id}/stop`, {
      outcome: 'kept',
      keptVariant: 'green',
      reason: 'Sells more, no more errors',
    });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({
      status: 'stopped',
      stoppedAt: expect.any(String),
      decision: { outcome: 'kept', keptVariant: 'green', reason: 'Sells more, no more errors' },
    });
    expect((await stack.admin.post(`${flag}/experiments/${id}/stop`, { outcome: 'discarded' })).status).toBe(409);
    type Logged = {
      type: string;
      featureName: string;
      data: { unleashEventType?: string; status?: string; statusValue?: string } | null;
    };
    const named = (ours: Logged[]) => ours.map((event) => event.data?.unleashEventType ?? event.type);
    // The event log takes the stop's events from the outbox through NATS, a moment after the answer.
    const ours = await eventually(
      async () => {
        const events = (await stack.admin.get('/api/admin/events?project=default')).body.events as Logged[];
        const found = events.filter((event) => event.featureName === 'checkout-colour');
        return ['experiment-stopped', 'feature-completed'].every((type) => named(found).includes(type)) && found;
      },
      { timeoutMs: 20_000 },
    );
    expect(named(ours)).toEqual(
      expect.arrayContaining(['experiment-started', 'experiment-stopped', 'feature-completed']),
    );
    expect(ours.find((event) => event.type === 'feature-completed')?.data).toEqual({
      status: 'kept',
      statusValue: 'green',
    });
    const lifecycle = (await stack.admin.get(`${flag}/lifecycle`)).body as { stage: string; status?: string }[];
    expect(lifecycle.at(-1)).toMatchObject({ stage: 'completed', status: 'kept' });
  });
});
