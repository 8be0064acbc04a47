import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Unleash } from 'unleash-client';
import { UnleashClient } from 'unleash-proxy-client';
import {
  eventually,
  loginAs,
  startTestStack,
  type HttpClient,
  type TestStack,
  stopUnleashSdk,
} from '@bunting/test-stack';

/**
 * Guardrails end to end with the real Node SDK (and the web SDK on the frontend API): the application evaluates the flag for many users and counts its
 * failures with an impact metric that carries the flag (the SDK labels each count with what that user got), and
 * Bunting compares the users who got the change with those who did not. A change that really fails more often
 * pauses its plan (or turns its flag off) with the comparison in the event; one that does not is advanced once the
 * minimum sample is in; a broken split stops the plan. A progression's "minute" is a second here.
 */
let stack: TestStack;
let sdk: Unleash;
const clientToken = 'default:development.guarded-sdk';
const frontendToken = 'default:development.guarded-web';
const flags = '/api/admin/projects/default/features';
const development = (flag: string) => `${flags}/${flag}/environments/development`;
const rollout = (percent: number) => ({
  name: 'flexibleRollout',
  parameters: { rollout: String(percent), stickiness: 'default', groupId: 'guarded' },
  constraints: [],
});
const errorsMetric = {
  metricName: 'payment_errors',
  timeRange: 'hour',
  aggregationMode: 'count',
  labelSelectors: {},
} as const;
type Comparison = {
  decision: string;
  summary: string;
  effect: number | null;
  interval: { lower: number | null; upper: number | null } | null;
  pValue: number | null;
  control: { exposures: number; units: number; mean: number };
  treatment: { exposures: number; units: number; mean: number };
  sampleRatioPValue: number | null;
};
type Logged = { type: string; featureName: string; createdAt: string; data: Record<string, unknown> };

/**
 * An application's traffic: each request evaluates the flag for its user and fails at a fixed rate of its side
 * (every tenth request, or four in ten with a broken change), counted with the flag's label.
 */
function traffic(flag: string, failuresInTen: { on: number; off: number }) {
  const served = { on: 0, off: 0 };
  let user = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      for (let request = 0; request < 100; request += 1) {
        const context = { userId: `user-${(user += 1)}` };
        const side = sdk.isEnabled(flag, context) ? 'on' : 'off';
        served[side] += 1;
        if (served[side] % 10 < failuresInTen[side]) {
          sdk.impactMetrics.incrementCounter('payment_errors', 1, { flagNames: [flag], context });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    served,
    async stop() {
      running = false;
      await loop;
    },
  };
}

const planOf = async (flag: string) =>
  (await stack.admin.get(`${development(flag)}/release-plans`)).body[0] as {
    id: string;
    activeMilestoneId: string | null;
    milestones: { id: string; name: string; pausedAt: string | null; progressionExecutedAt: string | null }[];
    safeguards: { id: string; triggeredAt: string | null; lastComparison: Comparison | null }[];
  };
const eventsNamed = async (name: string) =>
  (await stack.admin.get(`/api/admin/search/events?type=IS:${name}&limit=100`)).body.events as Logged[];
/** The event log is its own consumer of the outbox: wait until the events a change wrote have reached it. */
const loggedEvents = (name: string, matches: (event: Logged) => boolean) =>
  eventually(async () => {
    const found = (await eventsNamed(name)).filter(matches);
    return found.length > 0 && found;
  });

async function planWithTwoMilestones(
  flag: string,
  progression: { intervalMinutes: number; waitForGuardrails: boolean },
) {
  await stack.admin.post(flags, { name: flag });
  const template = await stack.admin.post('/api/admin/release-plan-templates', {
    name: `Guarded ${flag}`,
    milestones: [
      { name: 'Half', sortOrder: 0, strategies: [rollout(50)] },
      { name: 'Everyone', sortOrder: 1, strategies: [rollout(100)] },
    ],
  });
  expect(template.status).toBe(200);
  const plan = await stack.admin.post(`${development(flag)}/release-plans`, { templateId: template.body.id });
  expect(plan.status).toBe(200);
  const [half, everyone] = plan.body.milestones as { id: string }[];
  const progressed = await stack.admin.put(`${development(flag)}/progressions/${half!.id}`, {
    targetMilestone: everyone!.id,
    transitionCondition: progression,
  });
  expect(progressed.status).toBe(200);
  return { planId: plan.body.id as string, half: half!.id, everyone: everyone!.id };
}

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      INIT_CLIENT_API_TOKENS: clientToken,
      INIT_FRONTEND_API_TOKENS: frontendToken,
      RELEASE_PLAN_MINUTE_MS: '1000',
      PROGRESSION_SCHEDULER_MS: '100',
      SAFEGUARD_EVALUATION_MS: '400',
      // Two SDK metric intervals: time for the SDK to pick up a split before counting starts.
      GUARDRAIL_SETTLE_MS: '1000',
    },
  });
  sdk = new Unleash({
    url: `${stack.url}/api/`,
    appName: 'guarded-app',
    customHeaders: { Authorization: clientToken },
    refreshInterval: 100,
    metricsInterval: 200,
  });
  sdk.on('error', () => undefined);
  sdk.impactMetrics.defineCounter('payment_errors', 'Payments that failed');
  await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));
}, 60_000);

afterAll(async () => {
  stopUnleashSdk(sdk);
  await stack?.dispose();
});

describe('a guarded milestone', () => {
  it('pauses its plan when the users who get the change fail more often, and says why in the event', async () => {
    const plan = await planWithTwoMilestones('new-checkout', { intervalMinutes: 600, waitForGuardrails: false });
    const guardrail = await stack.admin.put(`${development('new-checkout')}/release-plans/${plan.planId}/safeguards`, {
      impactMetric: errorsMetric,
      comparison: { harm: 'increase', alpha: 0.05, minimumSample: 500 },
    });
    expect(guardrail.status).toBe(200);
    expect(guardrail.body).toMatchObject({
      comparison: { harm: 'increase', alpha: 0.05, minimumSample: 500 },
      triggerCondition: { operator: '>', threshold: 0 },
    });
    await stack.admin.post(`${development('new-checkout')}/on`);
    const load = traffic('new-checkout', { on: 4, off: 1 });
    try {
      await eventually(async () => (await planOf('new-checkout')).safeguards[0]?.triggeredAt != null, {
        timeoutMs: 40_000,
      });
    } finally {
      await load.stop();
    }
    const paused = await planOf('new-checkout');
    const reading = paused.safeguards[0]!.lastComparison!;
    expect(reading.decision).toBe('harm');
    expect(reading.effect).toBeGreaterThan(0.5);
    expect(reading.interval!.lower).toBeGreaterThan(0);
    expect(reading.interval!.upper).toBeNull();
    expect(reading.pValue).toBeLessThan(0.05);
    expect(reading.treatment.mean).toBeGreaterThan(reading.control.mean);
    expect(reading.summary).toMatch(/^Harm: with the change, payment_errors is \d+(\.\d+)? % higher/);
    const [triggered] = await loggedEvents('safeguard-triggered', (event) => event.featureName === 'new-checkout');
    expect(triggered?.data).toMatchObject({
      unleashEventType: 'safeguard-triggered',
      comparison: { metric: 'payment_errors', decision: 'harm', pValue: reading.pValue },
    });
    const [pausedEvent] = await loggedEvents(
      'release-plan-progressions-paused',
      (event) => event.featureName === 'new-checkout',
    );
    expect(pausedEvent?.data.pausedBy).toContain('Harm: with the change');
  }, 90_000);

  it('turns a flag off when its own guardrail sees harm, and the Node and web SDKs stop seeing the change within 30 s', async () => {
    await stack.admin.post(flags, { name: 'new-search' });
    expect((await stack.admin.post(`${development('new-search')}/strategies`, rollout(50))).status).toBe(200);
    const guardrail = await stack.admin.put(`${development('new-search')}/safeguards`, {
      impactMetric: errorsMetric,
      comparison: { harm: 'increase' },
    });
    expect(guardrail.status).toBe(200);
    expect(guardrail.body.comparison).toEqual({ harm: 'increase', alpha: 0.05, minimumSample: 1000 });
    await stack.admin.post(`${development('new-search')}/on`);
    // A browser on the frontend API, for a user who gets the change.
    const webUsers = Array.from({ length: 100 }, (_, i) => `web-${i}`);
    await eventually(async () => webUsers.some((userId) => sdk.isEnabled('new-search', { userId })));
    const treated = webUsers.find((userId) => sdk.isEnabled('new-search', { userId }));
    const web = new UnleashClient({
      url: `${stack.url}/api/frontend`,
      clientKey: frontendToken,
      appName: 'guarded-web',
      refreshInterval: 1,
      metricsInterval: 60,
      context: { userId: treated! },
    });
    web.on('error', () => undefined);
    await web.start();
    await eventually(async () => web.isEnabled('new-search'));
    const load = traffic('new-search', { on: 5, off: 1 });
    let decidedAt: number;
    let nodeLatency = Number.NaN;
    let webLatency = Number.NaN;
    try {
      await eventually(
        async () => {
          const flag = (await stack.admin.get(`${flags}/new-search`)).body;
          const environment = flag.environments.find((one: { name: string }) => one.name === 'development');
          return environment.safeguards[0]?.triggeredAt != null && !environment.enabled;
        },
        { timeoutMs: 40_000 },
      );
      decidedAt = Date.now();
      await eventually(
        async () =>
          !Array.from({ length: 50 }, (_, i) => `late-${i}`).some((userId) => sdk.isEnabled('new-search', { userId })),
        {
          timeoutMs: 30_000,
        },
      );
      nodeLatency = Date.now() - decidedAt;
      await eventually(async () => !web.isEnabled('new-search'), { timeoutMs: 30_000 });
      webLatency = Date.now() - decidedAt;
    } finally {
      await load.stop();
      web.stop();
    }
    console.info(
      `the Node SDK stopped seeing the change ${nodeLatency} ms, the web SDK ${webLatency} ms after the flag was turned off`,
    );
    expect(nodeLatency).toBeLessThan(30_000);
    expect(webLatency).toBeLessThan(30_000);
    const [disabled] = await loggedEvents(
      'feature-environment-disabled',
      (event) => event.featureName === 'new-search',
    );
    expect(disabled?.data).toMatchObject({
      unleashEventType: 'safeguard-triggered',
      comparison: { metric: 'payment_errors', decision: 'harm' },
    });
  }, 90_000);

  it('moves on only once the minimum sample shows no harm, never on the interval alone (all from a template)', async () => {
    // The template carries the guardrail and the progression that waits for it: every plan made from it starts so.
    await stack.admin.post(flags, { name: 'safe-checkout' });
    const guardrail = { impactMetric: errorsMetric, comparison: { harm: 'increase', minimumSample: 300 } };
    const body = {
      name: 'Guarded by evidence',
      milestones: [
        {
          name: 'Half',
          sortOrder: 0,
          strategies: [rollout(50)],
          transitionCondition: { intervalMinutes: 1, waitForGuardrails: true },
        },
        { name: 'Everyone', sortOrder: 1, strategies: [rollout(100)] },
      ],
    };
    const template = await stack.admin.post('/api/admin/release-plan-templates', { ...body, safeguards: [guardrail] });
    expect(template.status, JSON.stringify(template.body)).toBe(200);
    expect(template.body.milestones[0].transitionCondition).toEqual({ intervalMinutes: 1, waitForGuardrails: true });
    expect(template.body.safeguards).toEqual([{ ...guardrail, comparison: { ...guardrail.comparison, alpha: 0.05 } }]);
    // Unleash's UI saves a template without knowing safeguards: they stay.
    const saved = await stack.admin.put(`/api/admin/release-plan-templates/${template.body.id}`, body);
    expect(saved.status).toBe(200);
    expect(
      (await stack.admin.get(`/api/admin/release-plan-templates/${template.body.id}`)).body.safeguards,
    ).toHaveLength(1);
    const made = await stack.admin.post(`${development('safe-checkout')}/release-plans`, {
      templateId: template.body.id,
    });
    expect(made.status).toBe(200);
    expect(made.body.milestones[0].transitionCondition).toEqual({ intervalMinutes: 1, waitForGuardrails: true });
    expect(made.body.safeguards).toEqual([
      expect.objectContaining({ comparison: expect.objectContaining({ harm: 'increase', minimumSample: 300 }) }),
    ]);
    // The event log (its own service) has the safeguard's event as one set by hand would write.
    await eventually(
      async () =>
        (await eventsNamed('release-plan-safeguard-changed')).filter((event) => event.featureName === 'safe-checkout')
          .length === 1,
    );
    const [half, everyone] = made.body.milestones as { id: string }[];
    const plan = { half: half!.id, everyone: everyone!.id };
    await stack.admin.post(`${development('safe-checkout')}/on`);
    // The interval (a second) passes with no traffic: with no evidence the milestone stays.
    await eventually(async () => (await planOf('safe-checkout')).safeguards[0]?.lastComparison != null, {
      timeoutMs: 15_000,
    });
    const waiting = await planOf('safe-checkout');
    expect(waiting.activeMilestoneId).toBe(plan.half);
    expect(waiting.safeguards[0]!.lastComparison!.decision).toBe('waiting');
    const load = traffic('safe-checkout', { on: 1, off: 1 });
    try {
      await eventually(async () => (await planOf('safe-checkout')).activeMilestoneId === plan.everyone, {
        timeoutMs: 40_000,
      });
    } finally {
      await load.stop();
    }
    const started = await loggedEvents(
      'release-plan-milestone-started',
      (event) =>
        event.type === 'feature-metadata-updated' &&
        event.featureName === 'safe-checkout' &&
        (event.data.milestone as { id: string }).id === plan.everyone,
    );
    expect(started).toHaveLength(1);
    // The comparison begins again in the new milestone (everyone gets the change there: nothing to compare).
    await eventually(async () => (await planOf('safe-checkout')).safeguards[0]?.lastComparison?.decision === 'waiting');
    expect((await planOf('safe-checkout')).safeguards[0]!.triggeredAt).toBeNull();
  }, 90_000);

  it('stops the plan and reports a sample ratio mismatch instead of deciding on a broken split', async () => {
    const plan = await planWithTwoMilestones('split-flag', { intervalMinutes: 600, waitForGuardrails: false });
    const guardrail = await stack.admin.put(`${development('split-flag')}/release-plans/${plan.planId}/safeguards`, {
      impactMetric: errorsMetric,
      comparison: { harm: 'increase' },
    });
    expect(guardrail.status).toBe(200);
    await stack.admin.post(`${development('split-flag')}/on`);
    // Counting starts once the split has settled; what the SDKs report after that is compared.
    await eventually(
      async () => {
        const summary = (await planOf('split-flag')).safeguards[0]?.lastComparison?.summary;
        return summary !== undefined && !summary.startsWith('Settling');
      },
      { timeoutMs: 15_000 },
    );
    // An SDK whose reports lost a third of the treatment's evaluations: 50 % configured, 40 % seen.
    const labelled = { flagNames: ['split-flag'], context: { userId: 'someone' } };
    sdk.impactMetrics.incrementCounter('payment_errors', 1, labelled);
    const start = new Date().toISOString();
    const posted = await stack.anonymous.post(
      '/api/client/metrics',
      {
        appName: 'lossy-app',
        instanceId: 'lossy-1',
        bucket: { start, stop: new Date().toISOString(), toggles: { 'split-flag': { yes: 4000, no: 6000 } } },
      },
      { authorization: clientToken },
    );
    expect(posted.status).toBe(202);
    await eventually(async () => (await planOf('split-flag')).safeguards[0]?.triggeredAt != null, {
      timeoutMs: 30_000,
    });
    const stopped = await planOf('split-flag');
    const reading = stopped.safeguards[0]!.lastComparison!;
    expect(reading.decision).toBe('sample-ratio-mismatch');
    expect(reading.sampleRatioPValue).toBeLessThan(0.001);
    expect(reading.summary).toMatch(/^Stopped: the split looks broken\. 4,000 evaluations got the change/);
    expect(stopped.activeMilestoneId).toBe(plan.half);
  }, 90_000);
});

describe('bad guardrails and low-value credentials', () => {
  it('refuses what is not a guardrail in the spec shape; an SDK token and a viewer cannot set one', async () => {
    await stack.admin.post(flags, { name: 'untouched-guard' });
    const bad = [
      { impactMetric: errorsMetric },
      { impactMetric: errorsMetric, comparison: { harm: 'sideways' } },
      { impactMetric: errorsMetric, comparison: { harm: 'increase', alpha: 0.5 } },
      { impactMetric: errorsMetric, comparison: { harm: 'increase', minimumSample: 5 } },
      { impactMetric: errorsMetric, comparison: { harm: 'increase', extra: true } },
    ];
    for (const body of bad) {
      const answer = await stack.admin.put(`${development('untouched-guard')}/safeguards`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ name: 'ValidationError', message: expect.any(String) });
    }
    const bySdk = await stack.anonymous.put(
      `${development('untouched-guard')}/safeguards`,
      { impactMetric: errorsMetric, comparison: { harm: 'increase' } },
      { authorization: clientToken },
    );
    expect([401, 403]).toContain(bySdk.status);
    await stack.admin.post('/api/admin/user-admin', {
      username: 'guard-viewer',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const viewer = await loginAs(stack.url, 'guard-viewer', 'a-long-password');
    const byViewer = await viewer.put(`${development('untouched-guard')}/safeguards`, {
      impactMetric: errorsMetric,
      comparison: { harm: 'increase' },
    });
    expect(byViewer.status).toBe(403);
    const flag = (await stack.admin.get(`${flags}/untouched-guard`)).body;
    expect(flag.environments.find((one: { name: string }) => one.name === 'development').safeguards).toEqual([]);

    // The same refusals for a template's guardrails; a viewer cannot make a template that carries one.
    const templates = '/api/admin/release-plan-templates';
    const before = (await stack.admin.get(templates)).body.length;
    for (const safeguard of bad) {
      const answer = await stack.admin.post(templates, { name: 'Bad guard', safeguards: [safeguard] });
      expect(answer.status, JSON.stringify(safeguard)).toBe(400);
      expect(answer.body).toMatchObject({ name: 'ValidationError' });
    }
    const waits = { name: 'Bad wait', milestones: [{ name: 'A', transitionCondition: { waitForGuardrails: 'yes' } }] };
    expect((await stack.admin.post(templates, waits)).status).toBe(400);
    const guarded = {
      name: 'Viewer guard',
      safeguards: [{ impactMetric: errorsMetric, comparison: { harm: 'increase' } }],
    };
    expect((await viewer.post(templates, guarded)).status).toBe(403);
    expect((await stack.admin.get(templates)).body.length).toBe(before);
  }, 90_000);
});

describe('guardrails under change requests', () => {
  const production = (flag: string) => `${flags}/${flag}/environments/production`;
  let editor: HttpClient;
  let reviewer: HttpClient;

  beforeAll(async () => {
    await stack.admin.put('/api/admin/projects/default/environments/production/change-requests/config', {
      changeRequestsEnabled: true,
      requiredApprovals: 1,
    });
    for (const username of ['guard-editor', 'guard-reviewer'])
      await stack.admin.post('/api/admin/user-admin', { username, password: 'a-long-password', rootRole: 'Editor' });
    [editor, reviewer] = await Promise.all([
      loginAs(stack.url, 'guard-editor', 'a-long-password'),
      loginAs(stack.url, 'guard-reviewer', 'a-long-password'),
    ]);
    await stack.admin.post(flags, { name: 'gated-guard' });
  });

  it('sets a guardrail in a gated environment only through an approved change request', async () => {
    const guardrail = { impactMetric: errorsMetric, comparison: { harm: 'increase', minimumSample: 200 } };
    expect((await editor.put(`${production('gated-guard')}/safeguards`, guardrail)).status).toBe(403);
    const draft = await editor.post('/api/admin/projects/default/environments/production/change-requests', [
      { feature: 'gated-guard', action: 'changeFeatureEnvSafeguard', payload: { safeguard: guardrail } },
    ]);
    expect(draft.status).toBe(200);
    const state = (client: HttpClient, value: string) =>
      client.put(`/api/admin/projects/default/change-requests/${draft.body.id}/state`, { state: value });
    await state(editor, 'In review');
    const safeguardsNow = async () =>
      (await stack.admin.get(`${flags}/gated-guard`)).body.environments.find(
        (one: { name: string }) => one.name === 'production',
      ).safeguards;
    expect(await safeguardsNow()).toEqual([]);
    expect((await state(reviewer, 'Approved')).status).toBe(200);
    expect((await state(editor, 'Applied')).body.state).toBe('Applied');
    expect(await safeguardsNow()).toEqual([
      expect.objectContaining({
        comparison: { harm: 'increase', alpha: 0.05, minimumSample: 200 },
        triggerCondition: { operator: '>', threshold: 0 },
      }),
    ]);
  });
  it('proposes moving on as a change request where the environment requires them; people approve it', async () => {
    // Set up before development requires change requests; the SDK's traffic is development's.
    await stack.admin.post(flags, { name: 'gated-advance' });
    const template = await stack.admin.post('/api/admin/release-plan-templates', {
      name: 'Guarded, reviewed',
      milestones: [
        {
          name: 'Some',
          strategies: [rollout(50)],
          transitionCondition: { intervalMinutes: 1, waitForGuardrails: true },
        },
        { name: 'All', strategies: [rollout(100)] },
      ],
      safeguards: [{ impactMetric: errorsMetric, comparison: { harm: 'increase', minimumSample: 300 } }],
    });
    const plan = await stack.admin.post(`${development('gated-advance')}/release-plans`, {
      templateId: template.body.id,
    });
    const [some, all] = plan.body.milestones as { id: string }[];
    await stack.admin.post(`${development('gated-advance')}/on`);
    const config = '/api/admin/projects/default/environments/development/change-requests/config';
    await stack.admin.put(config, { changeRequestsEnabled: true, requiredApprovals: 1 });
    type Request = {
      id: number;
      title: string;
      state: string;
      createdBy: { username?: string };
      comments: { text: string }[];
      features: { name: string; changes: { action: string; payload: { milestoneId: string } }[] }[];
    };
    let proposal: Request | undefined;
    const load = traffic('gated-advance', { on: 1, off: 1 });
    try {
      await eventually(
        async () => {
          const open = (await stack.admin.get('/api/admin/projects/default/change-requests')).body as Request[];
          proposal = open.find((request) => request.title.startsWith('Guardrails call Some safe'));
          return proposal !== undefined;
        },
        { timeoutMs: 40_000 },
      );
    } finally {
      await load.stop();
      await stack.admin.put(config, { changeRequestsEnabled: false });
    }
    const detail = (await stack.admin.get(`/api/admin/projects/default/change-requests/${proposal!.id}`))
      .body as Request;
    expect(detail).toMatchObject({ title: 'Guardrails call Some safe: start All', state: 'In review' });
    expect(detail.features).toEqual([
      expect.objectContaining({
        name: 'gated-advance',
        changes: [
          expect.objectContaining({
            action: 'startMilestone',
            payload: expect.objectContaining({ milestoneId: all!.id }),
          }),
        ],
      }),
    ]);
    expect(detail.comments.map((comment) => comment.text).join(' ')).toMatch(/found no harm/);
    // Nothing moved on by itself, and it is proposed once.
    expect((await planOf('gated-advance')).activeMilestoneId).toBe(some!.id);
    const state = (client: HttpClient, value: string) =>
      client.put(`/api/admin/projects/default/change-requests/${proposal!.id}/state`, { state: value });
    expect((await state(reviewer, 'Approved')).status).toBe(200);
    expect((await state(reviewer, 'Applied')).body.state).toBe('Applied');
    expect((await planOf('gated-advance')).activeMilestoneId).toBe(all!.id);
    const proposals = (
      (await stack.admin.get('/api/admin/search/change-requests?limit=100')).body.changeRequests as {
        title?: string;
      }[]
    ).filter((request) => request.title?.startsWith('Guardrails call Some safe'));
    expect(proposals).toHaveLength(1);
  }, 90_000);
});
