import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  httpClient,
  isolate,
  loginAs,
  startServiceProcess,
  type HttpClient,
  type Isolation,
  type ServiceProcess,
} from '@bunting/test-stack';

/**
 * Four eyes on production, with admin-api running as two replicas (two all-in-one processes on one database and
 * one namespace): a change request proposed by an editor, approved by two others, applied, and seen by the SDK
 * edge; a scheduled one applied exactly once by the two replicas' schedulers; and one whose time passes while
 * every process is down, applied once on the next start.
 */

let isolation: Isolation;
let env: Record<string, string>;
let replicas: ServiceProcess[] = [];
let admin: HttpClient;
const adminToken = '*:*.cr-admin';
const frontendToken = 'default:production.cr-frontend';
const project = '/api/admin/projects/default';

async function startReplicas() {
  replicas = [await startServiceProcess('all', env), await startServiceProcess('all', env)];
  admin = httpClient(replicas[0]!.url, { authorization: adminToken });
}

async function stopReplicas() {
  for (const replica of replicas) await replica.stop();
  replicas = [];
}

const frontendSees = async (url: string, flag: string) => {
  const { body } = await httpClient(url, { authorization: frontendToken }).get('/api/frontend?userId=42');
  return (body.toggles as { name: string }[]).some((toggle) => toggle.name === flag);
};

/** Events of one type about one change request, as the event log holds them. */
async function eventsOf(type: string, changeRequestId: number) {
  const { body } = await admin.get('/api/admin/events?project=default');
  return (body.events as { type: string; data: { changeRequestId?: number } | null }[]).filter(
    (event) => event.type === type && event.data?.changeRequestId === changeRequestId,
  );
}

async function approvedRequest(editor: HttpClient, reviewers: HttpClient[], flag: string) {
  const draft = await editor.post(`${project}/environments/production/change-requests`, [
    {
      feature: flag,
      action: 'addStrategy',
      payload: {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: flag },
        constraints: [],
      },
    },
    { feature: flag, action: 'updateEnabled', payload: { enabled: true } },
  ]);
  expect(draft.status).toBe(200);
  const id = draft.body.id as number;
  expect((await editor.put(`${project}/change-requests/${id}/state`, { state: 'In review' })).status).toBe(200);
  for (const reviewer of reviewers)
    expect((await reviewer.put(`${project}/change-requests/${id}/state`, { state: 'Approved' })).status).toBe(200);
  expect((await editor.get(`${project}/change-requests/${id}`)).body.state).toBe('Approved');
  return id;
}

beforeAll(async () => {
  isolation = await isolate();
  env = {
    ...isolation.env,
    INIT_ADMIN_API_TOKENS: adminToken,
    INIT_FRONTEND_API_TOKENS: frontendToken,
    CHANGE_REQUEST_SCHEDULER_MS: '100',
  };
  await startReplicas();
  for (const username of ['editor', 'reviewer-one', 'reviewer-two']) {
    await admin.post('/api/admin/user-admin', { username, password: 'a-long-password', rootRole: 'Editor' });
  }
  await admin.put(`${project}/environments/production/change-requests/config`, {
    changeRequestsEnabled: true,
    requiredApprovals: 2,
  });
  for (const name of ['checkout', 'scheduled', 'while-down']) await admin.post(`${project}/features`, { name });
}, 90_000);

afterAll(async () => {
  await stopReplicas();
  await isolation?.cleanup();
});

const signIn = (url: string) =>
  Promise.all(['editor', 'reviewer-one', 'reviewer-two'].map((username) => loginAs(url, username, 'a-long-password')));

describe('change requests on production', () => {
  it('an editor proposes, two others approve, it is applied, and the SDK edge serves it', async () => {
    const [editor] = await signIn(replicas[0]!.url);
    expect((await editor!.post(`${project}/features/checkout/environments/production/on`)).status).toBe(403);
    // The reviewers use the other replica: the request is shared state, not a process's.
    const [, oneThere, twoThere] = await signIn(replicas[1]!.url);
    const id = await approvedRequest(editor!, [oneThere!, twoThere!], 'checkout');
    expect(await frontendSees(replicas[0]!.url, 'checkout')).toBe(false);
    const applied = await editor!.put(`${project}/change-requests/${id}/state`, { state: 'Applied' });
    expect(applied.body.state).toBe('Applied');
    await eventually(() => frontendSees(replicas[1]!.url, 'checkout'), { timeoutMs: 10_000 });
    await eventually(async () => (await eventsOf('change-request-applied', id)).length === 1);
  });

  it("a scheduled request is applied once by the two replicas' schedulers", async () => {
    const [editor, one, two] = await signIn(replicas[0]!.url);
    const id = await approvedRequest(editor!, [one!, two!], 'scheduled');
    const at = new Date(Date.now() + 2_000).toISOString();
    expect(
      (await one!.put(`${project}/change-requests/${id}/state`, { state: 'Scheduled', scheduledAt: at })).body.state,
    ).toBe('Scheduled');
    await eventually(async () => (await editor!.get(`${project}/change-requests/${id}`)).body.state === 'Applied', {
      timeoutMs: 15_000,
    });
    await eventually(() => frontendSees(replicas[1]!.url, 'scheduled'), { timeoutMs: 10_000 });
    await eventually(async () => (await eventsOf('change-request-scheduled-application-success', id)).length === 1, {
      timeoutMs: 10_000,
    });
    expect(await eventsOf('change-request-applied', id)).toHaveLength(1);
    const enabled = (await admin.get('/api/admin/events/scheduled')).body.events.filter(
      (event: { type: string; environment: string }) =>
        event.type === 'feature-environment-enabled' && event.environment === 'production',
    );
    expect(enabled).toHaveLength(1);
  });

  it('a request whose time passes while every process is down is applied once when they start', async () => {
    const [editor, one, two] = await signIn(replicas[0]!.url);
    const id = await approvedRequest(editor!, [one!, two!], 'while-down');
    const at = Date.now() + 3_000;
    await one!.put(`${project}/change-requests/${id}/state`, {
      state: 'Scheduled',
      scheduledAt: new Date(at).toISOString(),
    });
    await stopReplicas();
    // Down over the scheduled time; waiting for the clock here is the point of the test.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now()) + 500));
    const restarted = new Date().toISOString();
    await startReplicas();
    await eventually(async () => (await admin.get(`${project}/change-requests/${id}`)).body.state === 'Applied', {
      timeoutMs: 15_000,
    });
    await eventually(() => frontendSees(replicas[0]!.url, 'while-down'), { timeoutMs: 10_000 });
    const [success] = await eventually(
      async () => {
        const events = await eventsOf('change-request-scheduled-application-success', id);
        return events.length === 1 && events;
      },
      { timeoutMs: 10_000 },
    );
    // Applied by the restarted processes, not by one still running when the time came.
    expect((success as unknown as { createdAt: string }).createdAt >= restarted).toBe(true);
    expect(await eventsOf('change-request-applied', id)).toHaveLength(1);
  });
});
