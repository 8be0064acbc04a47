import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  httpClient,
  isolate,
  startServiceProcess,
  type HttpClient,
  type Isolation,
  type ServiceProcess,
} from '@bunting/test-stack';

/**
 * Automatic progression with admin-api as two replicas (two all-in-one processes on one database and namespace):
 * each milestone starts exactly once however many schedulers look, and a progression that comes due while every
 * process is dead (killed with SIGKILL, no shutdown) runs once when one starts again. A progression's minute lasts
 * a second here (RELEASE_PLAN_MINUTE_MS).
 */
let isolation: Isolation;
let env: Record<string, string>;
let replicas: ServiceProcess[] = [];
let admin: HttpClient;
const adminToken = '*:*.plan-replicas';
const flags = '/api/admin/projects/default/features';
const strategy = (rollout: number) => ({ name: 'flexibleRollout', parameters: { rollout: String(rollout) } });

async function startReplicas(count: number) {
  for (let index = 0; index < count; index += 1) replicas.push(await startServiceProcess('all', env));
  admin = httpClient(replicas[0]!.url, { authorization: adminToken });
}

const planOf = async (flag: string) =>
  (await admin.get(`${flags}/${flag}/environments/development/release-plans`)).body[0];

/** How many times each milestone of the flag's plan was started, as the event log holds it. */
async function startsOf(flag: string): Promise<Map<string, number>> {
  const { body } = await admin.get(
    `/api/admin/search/events?query=release-plan-milestone-started&feature=IS:${flag}&limit=100`,
  );
  const counts = new Map<string, number>();
  for (const event of body.events as { type: string; data: { milestone?: { id: string } } }[]) {
    if (event.type !== 'feature-metadata-updated' || !event.data.milestone) continue;
    counts.set(event.data.milestone.id, (counts.get(event.data.milestone.id) ?? 0) + 1);
  }
  return counts;
}

async function planOn(flag: string, templateId: string) {
  await admin.post(flags, { name: flag });
  await admin.post(`${flags}/${flag}/environments/development/release-plans`, { templateId });
  await admin.post(`${flags}/${flag}/environments/development/on`);
  return planOf(flag);
}

let templateId: string;
beforeAll(async () => {
  isolation = await isolate();
  env = {
    ...isolation.env,
    INIT_ADMIN_API_TOKENS: adminToken,
    RELEASE_PLAN_MINUTE_MS: '1000',
    PROGRESSION_SCHEDULER_MS: '50',
  };
  await startReplicas(2);
  templateId = (
    await admin.post('/api/admin/release-plan-templates', {
      name: 'Three steps',
      milestones: [
        { name: 'Ten', transitionCondition: { intervalMinutes: 2 }, strategies: [strategy(10)] },
        { name: 'Half', transitionCondition: { intervalMinutes: 2 }, strategies: [strategy(50)] },
        { name: 'All', strategies: [strategy(100)] },
      ],
    })
  ).body.id;
}, 90_000);

afterAll(async () => {
  for (const replica of replicas) await replica.stop();
  await isolation?.cleanup();
});

describe('automatic progression across replicas', () => {
  it('starts each milestone exactly once with two schedulers looking', async () => {
    const plan = await planOn('two-schedulers', templateId);
    await eventually(async () => (await planOf('two-schedulers')).activeMilestoneId === plan.milestones[2].id, {
      timeoutMs: 20_000,
    });
    await eventually(async () => (await startsOf('two-schedulers')).size === 3, { timeoutMs: 10_000 });
    expect([...(await startsOf('two-schedulers')).values()]).toEqual([1, 1, 1]);
    const strategies = (await admin.get('/api/admin/events?project=default')).body.events.filter(
      (event: { type: string; featureName: string; data: { milestoneId?: string } | null }) =>
        event.type === 'feature-strategy-add' && event.featureName === 'two-schedulers',
    );
    expect(strategies).toHaveLength(3);
  });

  it('runs a progression that came due while every process was killed, once, when one starts again', async () => {
    const plan = await planOn('killed', templateId);
    const due = Date.parse(plan.milestones[0].startedAt) + 2_000;
    for (const replica of replicas) await replica.kill();
    replicas = [];
    // Dead over the due time; waiting for the clock here is the point of the test.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()) + 300));
    const restartedAt = Date.now();
    await startReplicas(2);
    // Read from the event log and the milestone's own record, not the plan's passing state: on a slow machine the
    // second milestone (two seconds long here) may be over before the second replica has finished starting.
    await eventually(async () => (await startsOf('killed')).get(plan.milestones[1].id) === 1, { timeoutMs: 20_000 });
    const started = (await planOf('killed')).milestones[1].startedAt as string;
    expect(Date.parse(started)).toBeGreaterThanOrEqual(restartedAt);
    // It goes on from there as if nothing happened, and nothing ran twice.
    await eventually(async () => (await planOf('killed')).activeMilestoneId === plan.milestones[2].id, {
      timeoutMs: 20_000,
    });
    await eventually(async () => (await startsOf('killed')).size === 3, { timeoutMs: 10_000 });
    expect([...(await startsOf('killed')).values()]).toEqual([1, 1, 1]);
  });
});
