import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Unleash } from 'unleash-client';
import {
  eventually,
  loginAs,
  startTestStack,
  type HttpClient,
  type TestStack,
  stopUnleashSdk,
} from '@bunting/test-stack';

/**
 * Releases that progress and stop themselves, end to end with the real Node SDK: a template applied to a flag,
 * milestone 1 served, an automatic progression to milestone 2, an impact metric the SDK sends crossing a plan
 * safeguard (the plan stops progressing) and a flag-environment safeguard (the flag turns off for the SDK), resume;
 * change requests in a gated production; bad input refused without a change. A progression's "minute" lasts a
 * second here (RELEASE_PLAN_MINUTE_MS), so intervals of one and two minutes pass in seconds.
 */
let stack: TestStack;
let sdk: Unleash;
const clientToken = 'default:development.release-sdk';
const flags = '/api/admin/projects/default/features';
const development = (flag: string) => `${flags}/${flag}/environments/development`;
const USERS = Array.from({ length: 200 }, (_, index) => `user-${index}`);

const strategy = (rollout: number, extra: Record<string, unknown> = {}) => ({
  name: 'flexibleRollout',
  parameters: { rollout: String(rollout), stickiness: 'default' },
  constraints: [],
  ...extra,
});
const usersOn = (flag: string) => USERS.filter((userId) => sdk.isEnabled(flag, { userId })).length;
const planOf = async (flag: string, environment = 'development') =>
  (await stack.admin.get(`${flags}/${flag}/environments/${environment}/release-plans`)).body[0];
type Logged = { type: string; featureName: string; environment: string; data: Record<string, unknown> };
// The event search's type filter finds release management's events by Unleash's name for them as well.
const eventsNamed = async (name: string) =>
  (await stack.admin.get(`/api/admin/search/events?type=IS:${name}&limit=100`)).body.events as Logged[];
// What the owners' webhook was sent.
let receiver: Server;
const delivered: Logged[] = [];

async function createTemplate(name: string, milestones: unknown[]) {
  const created = await stack.admin.post('/api/admin/release-plan-templates', {
    name,
    description: 'Three steps',
    milestones,
  });
  expect(created.status).toBe(200);
  return created.body as { id: string; milestones: { id: string; name: string }[] };
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      delivered.push(JSON.parse(body) as Logged);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  stack = await startTestStack({
    env: {
      INIT_CLIENT_API_TOKENS: clientToken,
      RELEASE_PLAN_MINUTE_MS: '1000',
      PROGRESSION_SCHEDULER_MS: '100',
      SAFEGUARD_EVALUATION_MS: '300',
    },
  });
  for (const name of ['checkout', 'search', 'gated-flag', 'untouched']) await stack.admin.post(flags, { name });
  const hook = await stack.admin.post('/api/admin/addons', {
    provider: 'webhook',
    enabled: true,
    events: ['feature-environment-disabled', 'feature-metadata-updated'],
    parameters: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/owners` },
  });
  expect(hook.status).toBe(200);
  // search is on for everyone (its default strategy); checkout gets its strategies from its release plan alone.
  await stack.admin.post(`${development('search')}/on`);
  sdk = new Unleash({
    url: `${stack.url}/api/`,
    appName: 'release-app',
    customHeaders: { Authorization: clientToken },
    refreshInterval: 100,
    metricsInterval: 200,
  });
  sdk.on('error', () => undefined);
  sdk.impactMetrics.defineCounter('checkout_errors', 'Checkouts that failed');
  await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));
}, 60_000);

afterAll(async () => {
  stopUnleashSdk(sdk);
  await stack?.dispose();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('a release plan on the real SDK', () => {
  let plan: { id: string; milestones: { id: string; name: string }[] };

  it('waits in a disabled environment, and serves milestone 1 as soon as the flag is switched on there', async () => {
    const template = await createTemplate('Gradual release', [
      {
        name: 'Internal',
        sortOrder: 0,
        transitionCondition: { intervalMinutes: 1 },
        strategies: [
          strategy(100, { constraints: [{ contextName: 'userId', operator: 'IN', values: ['user-1', 'user-2'] }] }),
        ],
      },
      { name: 'Half', sortOrder: 1, strategies: [strategy(50)] },
      { name: 'Everyone', sortOrder: 2, strategies: [strategy(100)] },
    ]);
    expect(template.milestones.map((milestone) => milestone.name)).toEqual(['Internal', 'Half', 'Everyone']);
    const applied = await stack.admin.post(`${development('checkout')}/release-plans`, { templateId: template.id });
    expect(applied.status).toBe(200);
    plan = applied.body;
    expect(applied.body).toMatchObject({
      discriminator: 'plan',
      name: 'Gradual release',
      featureName: 'checkout',
      environment: 'development',
      releasePlanTemplateId: template.id,
      activeMilestoneId: null,
    });
    expect(
      (await stack.admin.post(`${development('checkout')}/release-plans`, { templateId: template.id })).status,
    ).toBe(409);
    // Switched on, the flag gets milestone 1's strategies, not a default strategy; the interval to milestone 2 starts now.
    expect((await stack.admin.post(`${development('checkout')}/on`)).status).toBe(200);
    const started = await planOf('checkout');
    expect(started.activeMilestoneId).toBe(plan.milestones[0]!.id);
    expect(started.milestones[0]).toMatchObject({
      name: 'Internal',
      transitionCondition: { intervalMinutes: 1 },
      startedAt: expect.any(String),
    });
    // The flag's own strategy list leaves the milestone's out; the plan is on the environment.
    const flag = (await stack.admin.get(`${flags}/checkout`)).body;
    const environment = flag.environments.find((one: { name: string }) => one.name === 'development');
    expect(environment.strategies.every((one: { milestoneId: string | null }) => one.milestoneId === null)).toBe(true);
    expect(environment.releasePlans).toEqual([expect.objectContaining({ id: plan.id })]);
    await eventually(async () => usersOn('checkout') === 2 && sdk.isEnabled('checkout', { userId: 'user-1' }));
  });

  it('moves on to milestone 2 on its own once the interval has passed, and says when', async () => {
    await eventually(async () => (await planOf('checkout')).activeMilestoneId === plan.milestones[1]!.id, {
      timeoutMs: 15_000,
    });
    const now = await planOf('checkout');
    expect(now.milestones[0].progressionExecutedAt).toEqual(expect.any(String));
    await eventually(async () => usersOn('checkout') > 60 && usersOn('checkout') < 140);
    const started = await eventsNamed('release-plan-milestone-started');
    expect(
      started.filter(
        (event) =>
          event.type === 'feature-metadata-updated' &&
          (event.data.milestone as { id: string }).id === plan.milestones[1]!.id,
      ),
    ).toHaveLength(1);
    // The milestone's strategies arrive and leave as strategy events naming it.
    const added = (await stack.admin.get('/api/admin/events?project=default')).body.events.filter(
      (event: { type: string; data: { milestoneId?: string } | null }) =>
        event.type === 'feature-strategy-add' && event.data?.milestoneId === plan.milestones[1]!.id,
    );
    expect(added).toHaveLength(1);
  });

  it("edits the running milestone's strategy through the flag's strategy route, for the SDK and in the plan", async () => {
    const running = (await planOf('checkout')).milestones[1].strategies[0];
    const edited = await stack.admin.put(`${development('checkout')}/strategies/${running.id}`, strategy(20));
    expect(edited.status).toBe(200);
    await eventually(async () => usersOn('checkout') > 10 && usersOn('checkout') < 70);
    expect((await planOf('checkout')).milestones[1].strategies[0]).toMatchObject({
      id: running.id,
      parameters: { rollout: '20' },
    });
  });

  it('stops progressing when a safeguard sees the error counter the SDK sends cross its threshold, and goes on when resumed', async () => {
    // Unleash's UI sets it through the underscore spelling.
    const safeguard = await stack.admin.put(`${development('checkout')}/release_plans/${plan.id}/safeguards`, {
      impactMetric: {
        metricName: 'unleash_counter_checkout_errors',
        timeRange: 'hour',
        aggregationMode: 'count',
        labelSelectors: { appName: ['release-app'] },
      },
      triggerCondition: { operator: '>', threshold: 5 },
    });
    expect(safeguard.status).toBe(200);
    expect(safeguard.body).toMatchObject({
      action: { type: 'pauseReleasePlanProgressions', id: plan.id },
      triggerCondition: { operator: '>', threshold: 5 },
      impactMetric: { id: expect.any(String), source: 'internal' },
    });
    sdk.impactMetrics.incrementCounter('checkout_errors', 12);
    // Milestone 2 had no progression yet: set one now, due 8 "minutes" (seconds here) from now, which leaves the SDK
    // time to send its counter under load; the safeguard must hold it past that.
    const startedAt = Date.parse((await planOf('checkout')).milestones[1].startedAt);
    const intervalMinutes = Math.ceil((Date.now() - startedAt) / 1000) + 8;
    const dueAt = startedAt + intervalMinutes * 1000;
    expect(
      (
        await stack.admin.put(`${development('checkout')}/progressions/${plan.milestones[1]!.id}`, {
          targetMilestone: plan.milestones[2]!.id,
          transitionCondition: { intervalMinutes },
        })
      ).status,
    ).toBe(200);
    await eventually(async () => (await planOf('checkout')).milestones[1].pausedAt !== null, { timeoutMs: 15_000 });
    const paused = await planOf('checkout');
    expect(paused.safeguards[0]).toMatchObject({ triggeredAt: expect.any(String), triggeredValue: expect.any(Number) });
    expect(paused.safeguards[0].triggeredValue).toBeGreaterThan(5);
    // Past the interval, milestone 2 still serves (the scheduler looks every 100 ms).
    await eventually(
      async () => {
        expect((await planOf('checkout')).activeMilestoneId).toBe(plan.milestones[1]!.id);
        return Date.now() > dueAt + 1_000;
      },
      { timeoutMs: 15_000 },
    );
    const triggered = await eventsNamed('safeguard-triggered');
    expect(
      triggered.some(
        (event) =>
          event.featureName === 'checkout' &&
          event.data.unleashEventType === 'safeguard-triggered' &&
          event.data.then === 'release-plan-progressions-paused',
      ),
    ).toBe(true);
    expect(
      (await eventsNamed('release-plan-progressions-paused')).some((event) => event.featureName === 'checkout'),
    ).toBe(true);
    expect((await eventsNamed('release-plan-added')).map((event) => [event.type, event.featureName])).toContainEqual([
      'feature-metadata-updated',
      'checkout',
    ]);
    // The owners hear of it through their webhook, as of any change.
    await eventually(async () =>
      delivered.some(
        (event) => event.featureName === 'checkout' && event.data.unleashEventType === 'safeguard-triggered',
      ),
    );

    // The errors stop; a person resumes, and the progression that came due runs.
    await stack.admin.delete(
      `${development('checkout')}/release-plans/${plan.id}/safeguards/${paused.safeguards[0].id}`,
    );
    expect((await stack.admin.post(`${development('checkout')}/progressions/${plan.id}/resume`)).status).toBe(200);
    await eventually(async () => (await planOf('checkout')).activeMilestoneId === plan.milestones[2]!.id, {
      timeoutMs: 15_000,
    });
    await eventually(async () => usersOn('checkout') === USERS.length);
  });

  it('turns a flag off in its environment when its own safeguard trips, and the SDK sees it off', async () => {
    const put = await stack.admin.put(`${development('search')}/safeguards`, {
      impactMetric: { metricName: 'checkout_errors', timeRange: 'hour', aggregationMode: 'rps', labelSelectors: {} },
      triggerCondition: { operator: '>', threshold: 0.01 },
    });
    expect(put.status).toBe(200);
    expect(put.body.action).toEqual({
      type: 'disableFeatureEnvironment',
      featureName: 'search',
      environment: 'development',
      project: 'default',
    });
    await eventually(async () => sdk.isEnabled('search') === false, { timeoutMs: 20_000 });
    const disabled = (await stack.admin.get('/api/admin/events?project=default')).body.events.find(
      (event: { type: string; featureName: string }) =>
        event.type === 'feature-environment-disabled' && event.featureName === 'search',
    );
    expect(disabled.data).toMatchObject({ unleashEventType: 'safeguard-triggered', safeguard: { id: put.body.id } });
    const flag = (await stack.admin.get(`${flags}/search`)).body.environments.find(
      (one: { name: string }) => one.name === 'development',
    );
    expect(flag.safeguards).toEqual([expect.objectContaining({ id: put.body.id, triggeredAt: expect.any(String) })]);
    await eventually(async () =>
      delivered.some(
        (event) =>
          event.type === 'feature-environment-disabled' &&
          event.featureName === 'search' &&
          event.data.unleashEventType === 'safeguard-triggered',
      ),
    );
  });
});

describe('a release plan in an environment switched off', () => {
  it('does not move on while the flag is off there, and moves on once it is back on', async () => {
    await stack.admin.post(flags, { name: 'paused-by-off' });
    const template = await createTemplate('Off and on', [
      { name: 'First', sortOrder: 0, transitionCondition: { intervalMinutes: 1 }, strategies: [strategy(10)] },
      { name: 'Second', sortOrder: 1, strategies: [strategy(100)] },
    ]);
    await stack.admin.post(`${development('paused-by-off')}/on`);
    const plan = (await stack.admin.post(`${development('paused-by-off')}/release-plans`, { templateId: template.id }))
      .body;
    expect(plan.activeMilestoneId).toBe(plan.milestones[0].id);
    expect((await stack.admin.post(`${development('paused-by-off')}/off`)).status).toBe(200);
    // Past the interval (a "minute" is a second here; the scheduler looks every 100 ms), the first still runs.
    const startedAt = Date.parse((await planOf('paused-by-off')).milestones[0].startedAt);
    await eventually(
      async () => {
        expect((await planOf('paused-by-off')).activeMilestoneId).toBe(plan.milestones[0].id);
        return Date.now() > startedAt + 3_000;
      },
      { timeoutMs: 10_000 },
    );
    expect((await stack.admin.post(`${development('paused-by-off')}/on`)).status).toBe(200);
    await eventually(async () => (await planOf('paused-by-off')).activeMilestoneId === plan.milestones[1].id, {
      timeoutMs: 10_000,
    });
  });
});

describe('release plans under change requests', () => {
  const production = (flag: string) => `${flags}/${flag}/environments/production`;
  let editor: HttpClient;
  let reviewer: HttpClient;
  let templateId: string;

  beforeAll(async () => {
    await stack.admin.put('/api/admin/projects/default/environments/production/change-requests/config', {
      changeRequestsEnabled: true,
      requiredApprovals: 1,
    });
    for (const username of ['plan-editor', 'plan-reviewer'])
      await stack.admin.post('/api/admin/user-admin', { username, password: 'a-long-password', rootRole: 'Editor' });
    [editor, reviewer] = await Promise.all([
      loginAs(stack.url, 'plan-editor', 'a-long-password'),
      loginAs(stack.url, 'plan-reviewer', 'a-long-password'),
    ]);
    templateId = (
      await createTemplate('Two steps', [
        { name: 'Some', transitionCondition: { intervalMinutes: 1 }, strategies: [strategy(10)] },
        { name: 'All', strategies: [strategy(100)] },
      ])
    ).id;
  });

  it('refuses a direct plan in a gated environment, applies it through a change request, and lets its progression run', async () => {
    const refused = await editor.post(`${production('gated-flag')}/release-plans`, { templateId });
    expect(refused.status).toBe(403);
    expect(await planOf('gated-flag', 'production')).toBeUndefined();
    const draft = await editor.post('/api/admin/projects/default/environments/production/change-requests', [
      { feature: 'gated-flag', action: 'updateEnabled', payload: { enabled: true } },
      { feature: 'gated-flag', action: 'addReleasePlan', payload: { templateId } },
    ]);
    expect(draft.status).toBe(200);
    const id = draft.body.id;
    await editor.put(`/api/admin/projects/default/change-requests/${id}/state`, { state: 'In review' });
    expect(
      (await reviewer.put(`/api/admin/projects/default/change-requests/${id}/state`, { state: 'Approved' })).status,
    ).toBe(200);
    expect(
      (await editor.put(`/api/admin/projects/default/change-requests/${id}/state`, { state: 'Applied' })).body.state,
    ).toBe('Applied');
    const plan = await planOf('gated-flag', 'production');
    expect(plan.activeMilestoneId).toBe(plan.milestones[0].id);
    // Approved when configured: the progression runs in the gated environment without a request of its own.
    await eventually(
      async () => (await planOf('gated-flag', 'production')).activeMilestoneId === plan.milestones[1].id,
      { timeoutMs: 15_000 },
    );
    // Starting a milestone by hand is a change request there too.
    expect(
      (
        await editor.post(
          `${production('gated-flag')}/release-plans/${plan.id}/milestones/${plan.milestones[0].id}/start`,
        )
      ).status,
    ).toBe(403);
    const waiting = plan.milestones[1].strategies[0];
    const changes = await editor.post('/api/admin/projects/default/environments/production/change-requests', [
      { feature: 'gated-flag', action: 'startMilestone', payload: { milestoneId: plan.milestones[0].id } },
      {
        feature: 'gated-flag',
        action: 'updateMilestoneStrategy',
        payload: {
          id: waiting.id,
          name: 'flexibleRollout',
          parameters: { rollout: '75', stickiness: 'default' },
          constraints: [],
        },
      },
      {
        feature: 'gated-flag',
        action: 'changeReleasePlanSafeguard',
        payload: {
          planId: plan.id,
          safeguard: {
            impactMetric: {
              metricName: 'checkout_errors',
              timeRange: 'hour',
              aggregationMode: 'count',
              labelSelectors: {},
            },
            triggerCondition: { operator: '>', threshold: 1000 },
          },
        },
      },
    ]);
    expect(changes.status).toBe(200);
    // Nothing happens until it is applied.
    expect((await planOf('gated-flag', 'production')).activeMilestoneId).toBe(plan.milestones[1].id);
    await editor.put(`/api/admin/projects/default/change-requests/${changes.body.id}/state`, { state: 'In review' });
    await reviewer.put(`/api/admin/projects/default/change-requests/${changes.body.id}/state`, { state: 'Approved' });
    expect(
      (await editor.put(`/api/admin/projects/default/change-requests/${changes.body.id}/state`, { state: 'Applied' }))
        .body.state,
    ).toBe('Applied');
    const applied = await planOf('gated-flag', 'production');
    expect(applied.activeMilestoneId).toBe(plan.milestones[0].id);
    expect(applied.milestones[1].strategies[0]).toMatchObject({ id: waiting.id, parameters: { rollout: '75' } });
    expect(applied.safeguards).toEqual([
      expect.objectContaining({ triggerCondition: { operator: '>', threshold: 1000 } }),
    ]);
  });
});

describe('bad input to release plans', () => {
  it('is refused in the spec shape and changes nothing', async () => {
    const before = JSON.stringify((await stack.admin.get(`${flags}/untouched`)).body.environments);
    const template = await createTemplate('For refusals', [{ name: 'Only', strategies: [strategy(100)] }]);
    const other = await stack.admin
      .post(`${development('search')}/release-plans`, { templateId: template.id })
      .catch(() => null);
    const refusals: [string, string, unknown, number][] = [
      ['POST', `${development('untouched')}/release-plans`, { templateId: 'no-such-template' }, 400],
      ['POST', `${development('untouched')}/release-plans`, { templateId: 17 }, 400],
      ['POST', `${development('untouched')}/release-plans`, {}, 400],
      [
        'POST',
        '/api/admin/release-plan-templates',
        {
          name: 'Bad interval',
          milestones: [{ name: 'A', transitionCondition: { intervalMinutes: 0 } }, { name: 'B' }],
        },
        400,
      ],
      [
        'POST',
        '/api/admin/release-plan-templates',
        { name: 'Bad strategy', milestones: [{ name: 'A', strategies: [{ name: 'noSuchStrategy' }] }] },
        400,
      ],
      ['POST', '/api/admin/release-plan-templates', { name: 'Gradual release' }, 409],
      [
        'PUT',
        `${development('untouched')}/safeguards`,
        {
          impactMetric: { metricName: 'x', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
          triggerCondition: { operator: '>', threshold: 'ten' },
        },
        400,
      ],
      [
        'PUT',
        `${development('untouched')}/safeguards`,
        {
          impactMetric: { metricName: 'x', timeRange: 'year', aggregationMode: 'count', labelSelectors: {} },
          triggerCondition: { operator: '>', threshold: 1 },
        },
        400,
      ],
      [
        'PUT',
        `${development('untouched')}/safeguards`,
        {
          impactMetric: { metricName: 'x', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
          triggerCondition: { operator: '>=', threshold: 1 },
        },
        400,
      ],
      [
        'PUT',
        `${development('untouched')}/progressions/01HZZZZZZZZZZZZZZZZZZZZZZZ`,
        { targetMilestone: '01HZZZZZZZZZZZZZZZZZZZZZZY', transitionCondition: { intervalMinutes: 1 } },
        404,
      ],
      [
        'PUT',
        `${development('untouched')}/progressions/x`,
        { targetMilestone: 'y', transitionCondition: { intervalMinutes: 0 } },
        400,
      ],
    ];
    if (other?.status === 200) {
      // A milestone of another flag's plan is not this one's.
      refusals.push([
        'POST',
        `${development('untouched')}/release-plans/${other.body.id}/milestones/${other.body.milestones[0].id}/start`,
        undefined,
        404,
      ]);
    }
    for (const [method, path, body, status] of refusals) {
      const answer = await stack.admin.call(method, path, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.body, `${method} ${path}`).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        message: expect.any(String),
      });
    }
    expect(JSON.stringify((await stack.admin.get(`${flags}/untouched`)).body.environments)).toBe(before);
    expect(
      (await stack.admin.get('/api/admin/release-plan-templates')).body.map((one: { name: string }) => one.name),
    ).not.toContain('Bad interval');
  });
});
