import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenFeature } from '@openfeature/server-sdk';
import { OpenFeature as WebFeatures } from '@openfeature/web-sdk';
import { sql } from '@bunting/platform';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * Per-user outcomes through OpenFeature's tracking API: the real OpenFeature server SDK with Bunting's provider
 * package, built as npm would ship it, evaluates a flag's variants through OFREP and tracks checkouts; Bunting joins
 * each tracked event with the variant that user got and an experiment reads green selling more than blue.
 */
let stack: TestStack;
const clientToken = 'default:development.openfeature-tracking';
const frontendToken = 'default:development.openfeature-tracking-web';
const flags = '/api/admin/projects/default/features';
const flag = `${flags}/checkout-colour`;
const build = fileURLToPath(new URL('../../../openfeature-provider/scripts/build.ts', import.meta.url));

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [build]);
  stack = await startTestStack({
    env: { INIT_CLIENT_API_TOKENS: clientToken, INIT_FRONTEND_API_TOKENS: frontendToken },
  });
  await stack.admin.post(flags, { name: 'checkout-colour', type: 'experiment' });
  await stack.admin.put(`${flag}/environments/development/variants`, [
    { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
    { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
  ]);
  await stack.admin.post(`${flag}/environments/development/on`);
}, 60_000);

afterAll(async () => {
  await OpenFeature.close();
  await WebFeatures.close();
  await stack?.dispose();
});

/** The per-user experiment, read again once another project's token has tried to join it. */
let copyExperiment = '';
const unitsIn = async (path: string) => {
  const { metrics } = (await stack.admin.get(path)).body as { metrics: { arms: { units: number; mean: number }[] }[] };
  return {
    units: metrics[0]!.arms.reduce((sum, arm) => sum + arm.units, 0),
    means: metrics[0]!.arms.map((a) => a.mean),
  };
};

describe("Bunting's OpenFeature provider", () => {
  it('counts evaluations as exposures and tracked checkouts per variant, which an experiment reads', async () => {
    const started = await stack.admin.post(`${flag}/experiments`, {
      name: 'Green checkout button',
      environment: 'development',
      controlVariant: 'blue',
      metrics: [{ metricName: 'checkouts', role: 'primary', better: 'increase' }],
      minimumSample: 500,
    });
    expect(started.status).toBe(201);
    const { BuntingProvider } = await import('@bunting/openfeature-provider');
    const dropped: string[] = [];
    await OpenFeature.setProviderAndWait(
      new BuntingProvider({
        baseUrl: stack.url,
        token: clientToken,
        appName: 'of-shop',
        flushIntervalMs: 60_000,
        onDropped: (count, reason) => dropped.push(`${count}: ${reason}`),
      }),
    );
    const client = OpenFeature.getClient();
    const served = { blue: 0, green: 0 };
    let tracked = 0;
    for (let user = 0; user < 3000; user += 1) {
      const context = { targetingKey: `buyer-${user}` };
      const details = await client.getBooleanDetails('checkout-colour', false, context);
      const variant = details.variant as 'blue' | 'green';
      served[variant] += 1;
      // Green converts three in ten, blue two in ten; the event names no flags, so the ones evaluated are used.
      if (served[variant] % 10 < (variant === 'green' ? 3 : 2)) {
        client.track('checkouts', context, { value: 1 });
        tracked += 1;
      }
    }
    client.track('not a metric name', { targetingKey: 'x' });
    await OpenFeature.close();
    expect(dropped).toEqual(['1: not a metric name is not a metric name']);
    expect(served.blue + served.green).toBe(3000);

    let results!: {
      metrics: {
        arms: { variant: string; exposures: number; mean: number }[];
        comparisons: { variant: string; verdict: string }[];
      }[];
    };
    await eventually(
      async () => {
        results = (await stack.admin.get(`${flag}/experiments/${started.body.id}`)).body;
        const arms = results.metrics[0]!.arms;
        const exposures = arms.reduce((sum, arm) => sum + arm.exposures, 0);
        const checkouts = arms.reduce((sum, arm) => sum + Math.round(arm.mean * arm.exposures), 0);
        return exposures === 3000 && checkouts === tracked && results.metrics[0]!.comparisons.length === 1;
      },
      { timeoutMs: 20_000 },
    );
    const [checkouts] = results.metrics;
    expect(checkouts!.arms.find((arm) => arm.variant === 'blue')).toMatchObject({ exposures: served.blue });
    expect(checkouts!.arms.find((arm) => arm.variant === 'green')!.mean).toBeCloseTo(0.3, 2);
    expect(checkouts!.arms.find((arm) => arm.variant === 'blue')!.mean).toBeCloseTo(0.2, 2);
    expect(checkouts!.comparisons[0]).toMatchObject({ variant: 'green', verdict: 'better' });
  }, 90_000);

  it('counts users rather than evaluations for tracked metrics, adjusted for the week before (CUPED)', async () => {
    const copy = `${flags}/checkout-copy`;
    await stack.admin.post(flags, { name: 'checkout-copy', type: 'experiment' });
    await stack.admin.put(`${copy}/environments/development/variants`, [
      { name: 'plain', weight: 500, weightType: 'variable', stickiness: 'default' },
      { name: 'bold', weight: 500, weightType: 'variable', stickiness: 'default' },
    ]);
    await stack.admin.post(`${copy}/environments/development/on`);
    const started = await stack.admin.post(`${copy}/experiments`, {
      name: 'Bold copy',
      environment: 'development',
      controlVariant: 'plain',
      metrics: [
        { metricName: 'spend', role: 'primary', better: 'increase', source: 'tracked', preDays: 7 },
        { metricName: 'orders', role: 'secondary', better: 'increase', source: 'tracked', aggregation: 'converted' },
      ],
      minimumSample: 100,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    // What each shopper spent in the week before (the test cannot wait a week: the days are written as insights
    // keeps them). Shoppers differ a lot; each spends about as before, bold adds 3 to everyone.
    const before = (user: number) => 20 + (user % 9) * 10;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const users = 400;
    // One in five is new (no week before) and buys nothing: an exposure only.
    const buys = (user: number) => user % 5 !== 0;
    for (let user = 0; user < users; user += 1) {
      if (!buys(user)) continue;
      await stack.db
        .query(sql.unsafe`insert into insights.tracked_totals (environment, metric, unit_key, day, total, events)
        values ('development', 'spend', ${`shopper-${user}`}, ${yesterday}::date, ${before(user)}, 1)`);
    }
    const { BuntingProvider } = await import('@bunting/openfeature-provider');
    await OpenFeature.setProviderAndWait(
      new BuntingProvider({ baseUrl: stack.url, token: clientToken, appName: 'of-shop', flushIntervalMs: 60_000 }),
    );
    const client = OpenFeature.getClient();
    const served = { plain: 0, bold: 0 };
    for (let user = 0; user < users; user += 1) {
      const context = { targetingKey: `shopper-${user}` };
      // Three evaluations a shopper: three exposures for the SDK metrics, one user for the experiment.
      let variant = '';
      for (let look = 0; look < 3; look += 1) {
        variant = (await client.getBooleanDetails('checkout-copy', false, context)).variant!;
      }
      served[variant as 'plain' | 'bold'] += 1;
      // The rest spend about what they spent before.
      if (!buys(user)) continue;
      const spend = before(user) + (variant === 'bold' ? 3 : 0) + ((user * 7) % 5) - 2;
      client.track('spend', context, { value: spend, flags: ['checkout-copy'] });
      client.track('orders', context, { flags: ['checkout-copy'] });
    }
    await OpenFeature.close();
    type Results = {
      sampleRatio: { exposures: Record<string, number> } | null;
      metrics: {
        arms: { variant: string; exposures: number; units: number; mean: number; adjustedMean: number | null }[];
        comparisons: { variant: string; verdict: string; interval: { lower: number; upper: number } }[];
        adjustment: { varianceReduction: number; unitsWithHistory: number; excludedUnits: number } | null;
      }[];
    };
    let results!: Results;
    await eventually(
      async () => {
        results = (await stack.admin.get(`${copy}/experiments/${started.body.id}`)).body;
        const [spend] = results.metrics;
        const units = spend!.arms.reduce((sum, arm) => sum + arm.units, 0);
        const exposures = spend!.arms.reduce((sum, arm) => sum + arm.exposures, 0);
        return units === users && exposures === users * 3;
      },
      { timeoutMs: 20_000 },
    );
    const [spend, orders] = results.metrics;
    copyExperiment = `${copy}/experiments/${started.body.id}`;
    expect(spend!.arms.find((arm) => arm.variant === 'bold')!.units).toBe(served.bold);
    expect(results.sampleRatio!.exposures).toEqual(served);
    expect(spend!.adjustment).toMatchObject({ unitsWithHistory: (users * 4) / 5, excludedUnits: 0 });
    // Spend varies ten times more between shoppers than within one: the week before explains most of it.
    expect(spend!.adjustment!.varianceReduction).toBeGreaterThan(0.9);
    expect(spend!.comparisons[0]).toMatchObject({ variant: 'bold', verdict: 'better' });
    // The lift the adjusted means give is about 3 on a mean near 50 (the plain means differ by chance as well).
    const [plainArm, boldArm] = ['plain', 'bold'].map((name) => spend!.arms.find((arm) => arm.variant === name)!);
    expect((boldArm!.adjustedMean! - plainArm!.adjustedMean!) / plainArm!.adjustedMean!).toBeCloseTo(3 / 58, 1);
    // Four in five ordered, in both variants: no difference to find.
    expect(orders!.arms.map((arm) => arm.mean)).toEqual([expect.closeTo(0.8, 1), expect.closeTo(0.8, 1)]);
    expect(orders!.comparisons[0]).toMatchObject({ verdict: 'inconclusive' });
  }, 90_000);

  it("counts a web application's users with the web provider (the real OpenFeature web SDK)", async () => {
    const signup = `${flags}/signup-copy`;
    await stack.admin.post(flags, { name: 'signup-copy', type: 'experiment' });
    await stack.admin.put(`${signup}/environments/development/variants`, [
      { name: 'short', weight: 500, weightType: 'variable', stickiness: 'default' },
      { name: 'long', weight: 500, weightType: 'variable', stickiness: 'default' },
    ]);
    await stack.admin.post(`${signup}/environments/development/on`);
    const started = await stack.admin.post(`${signup}/experiments`, {
      name: 'Long copy',
      environment: 'development',
      controlVariant: 'short',
      metrics: [
        { metricName: 'signups', role: 'primary', better: 'increase', source: 'tracked', aggregation: 'converted' },
      ],
      // Read once, at the planned sample: 400 visitors are too few for the sequential test's wider range.
      method: 'fixed-horizon',
      minimumSample: 100,
    });
    expect(started.status).toBe(201);
    const { BuntingWebProvider } = await import('@bunting/openfeature-provider/web');
    // A browser holds one user at a time: each visitor is a context change, then an evaluation, maybe a signup.
    await WebFeatures.setContext({ targetingKey: 'visitor-0' });
    await WebFeatures.setProviderAndWait(
      new BuntingWebProvider({
        baseUrl: stack.url,
        token: frontendToken,
        appName: 'signup-site',
        flushIntervalMs: 60_000,
      }),
    );
    const web = WebFeatures.getClient();
    const served = { short: 0, long: 0 };
    const visitors = 400;
    for (let visitor = 0; visitor < visitors; visitor += 1) {
      await WebFeatures.setContext({ targetingKey: `visitor-${visitor}` });
      const variant = web.getBooleanDetails('signup-copy', false).variant as 'short' | 'long';
      served[variant] += 1;
      // Long copy signs up five in ten, short two in ten.
      if (served[variant] % 10 < (variant === 'long' ? 5 : 2)) web.track('signups');
    }
    await WebFeatures.close();
    type Results = {
      metrics: {
        arms: { variant: string; exposures: number; units: number; mean: number }[];
        comparisons: { variant: string; verdict: string }[];
      }[];
    };
    let results!: Results;
    await eventually(
      async () => {
        results = (await stack.admin.get(`${signup}/experiments/${started.body.id}`)).body;
        const arms = results.metrics[0]!.arms;
        return (
          arms.reduce((sum, arm) => sum + arm.units, 0) === visitors &&
          arms.reduce((sum, arm) => sum + arm.exposures, 0) === visitors
        );
      },
      { timeoutMs: 20_000 },
    );
    const [signups] = results.metrics;
    expect(signups!.arms.find((arm) => arm.variant === 'long')).toMatchObject({ units: served.long });
    expect(signups!.arms.find((arm) => arm.variant === 'long')!.mean).toBeCloseTo(0.5, 1);
    expect(signups!.arms.find((arm) => arm.variant === 'short')!.mean).toBeCloseTo(0.2, 1);
    expect(signups!.comparisons[0]).toMatchObject({ variant: 'long', verdict: 'better' });
  }, 90_000);

  it('refuses a tracking post it cannot take in the spec shape, and one without an SDK token', async () => {
    const post = (body: unknown, authorization = clientToken) =>
      stack.anonymous.post('/api/frontend/track', body, { authorization });
    const event = { name: 'checkouts', context: { targetingKey: 'u' }, flags: ['checkout-colour'] };
    for (const body of [
      {},
      { events: [] },
      { events: [{ ...event, name: '1bad' }] },
      { events: [{ ...event, flags: [] }] },
      { events: [{ ...event, value: 'a lot' }] },
      { events: [{ ...event, extra: true }] },
      { events: Array.from({ length: 501 }, () => event) },
      { exposures: [{ context: { targetingKey: 'u' }, flags: [] }] },
      { exposures: [{ context: { targetingKey: 'u' }, flags: ['checkout-colour'], name: 'x' }] },
    ]) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body).toMatchObject({ name: 'ValidationError' });
    }
    expect((await post({ events: [event] }, 'nonsense')).status).toBe(401);
    await stack.admin.post('/api/admin/scim-settings', { enabled: true });
    const scimToken = (await stack.admin.post('/api/admin/scim-settings/generate-new-token')).body.token as string;
    expect([401, 403]).toContain((await post({ events: [event] }, `Bearer ${scimToken}`)).status);
    // A token of another project cannot label anything with this project's flag: the event counts nowhere.
    await stack.admin.post('/api/admin/projects', { id: 'other', name: 'other' });
    const foreign = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'other-sdk',
      type: 'client',
      environment: 'development',
      projects: ['other'],
    });
    expect(foreign.status).toBe(201);
    expect((await post({ events: [{ ...event, name: 'foreign_checkouts' }] }, foreign.body.secret)).status).toBe(202);
    expect((await post({ events: [{ ...event, name: 'own_checkouts' }] })).status).toBe(202);
    await eventually(async () =>
      (await stack.anonymous.get('/internal-backstage/impact/metrics')).text.includes('own_checkouts'),
    );
    expect((await stack.anonymous.get('/internal-backstage/impact/metrics')).text).not.toContain('foreign_checkouts');
    // Nor put a user into this project's per-user experiment: its exposure and spend count nowhere.
    expect(copyExperiment).not.toBe('');
    const intruder = { context: { targetingKey: 'intruder' }, flags: ['checkout-copy'] };
    expect(
      (await post({ exposures: [intruder], events: [{ name: 'spend', value: 1e6, ...intruder }] }, foreign.body.secret))
        .status,
    ).toBe(202);
    const marker = { context: { targetingKey: 'marker' }, flags: ['checkout-copy'] };
    expect((await post({ exposures: [marker] })).status).toBe(202);
    await eventually(async () => (await unitsIn(copyExperiment)).units === 401);
    expect((await unitsIn(copyExperiment)).means.every((mean) => mean < 100)).toBe(true);
    expect((await post({ events: [event] }, stack.adminToken)).status).toBe(403);
    // A prototype key in a context (sent as raw JSON: a literal would set the prototype) is refused outright.
    const raw =
      '{"events":[{"name":"checkouts","context":{"__proto__":{"polluted":true},"targetingKey":"u"},"flags":["checkout-colour"]}]}';
    expect((await post(raw)).status).toBe(400);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
