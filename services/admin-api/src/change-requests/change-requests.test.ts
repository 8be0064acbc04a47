import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventLogTotalAfterMarker,
  eventually,
  httpClient,
  loginAs,
  startTestStack,
  type HttpClient,
  type TestStack,
} from '@bunting/test-stack';

/**
 * Change requests through the admin API: configuration, the direct routes refused where they are on, every
 * state transition with its permission and its one event, the four-eyes rule, conflicts (all or nothing), edits
 * after approval, and the scheduler (applied, failed on conflict, suspended when its user is deleted).
 */

let stack: TestStack;
let author: HttpClient;
let approver: HttpClient;
let second: HttpClient;
let viewer: HttpClient;
let adminUser: HttpClient;
const project = '/api/admin/projects/shop';
const production = `${project}/environments/production`;
const flag = (name: string) => `${project}/features/${name}`;
const propose = (client: HttpClient, body: unknown, environment = 'production') =>
  client.post(`${project}/environments/${environment}/change-requests`, body);
const setState = (client: HttpClient, id: number, body: Record<string, unknown>) =>
  client.put(`${project}/change-requests/${id}/state`, body);
const environmentOf = async (name: string, environment = 'production') =>
  (await stack.admin.get(flag(name))).body.environments.find((entry: { name: string }) => entry.name === environment);

/** The change-request events written since `after`, as "type:changeRequestId". */
async function eventsSince(after: number, count: number): Promise<string[]> {
  return eventually(async () => {
    const { body } = await stack.admin.get('/api/admin/events?project=shop');
    const events = (body.events as { id: number; type: string; data: { changeRequestId?: number } | null }[])
      .filter((event) => event.id > after && event.type.startsWith('change'))
      .sort((a, b) => a.id - b.id)
      .map((event) => `${event.type}:${event.data?.changeRequestId ?? ''}`);
    return events.length >= count && events;
  });
}
/** The id of an event written now, once the event log holds it (and so everything written before it). */
async function lastEventId() {
  await eventLogTotalAfterMarker(stack.admin);
  return Math.max(...(await stack.admin.get('/api/admin/events')).body.events.map((event: { id: number }) => event.id));
}

beforeAll(async () => {
  stack = await startTestStack({ env: { CHANGE_REQUEST_SCHEDULER_MS: '100' } });
  const { admin } = stack;
  await admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' });
  for (const name of ['checkout', 'banner', 'parent']) await admin.post(`${project}/features`, { name });
  for (const [username, rootRole] of [
    ['ana', 'Editor'],
    ['bo', 'Editor'],
    ['cy', 'Editor'],
    ['vi', 'Viewer'],
  ] as const) {
    await admin.post('/api/admin/user-admin', { username, password: 'a-long-password', rootRole });
  }
  [author, approver, second, viewer, adminUser] = await Promise.all([
    loginAs(stack.url, 'ana', 'a-long-password'),
    loginAs(stack.url, 'bo', 'a-long-password'),
    loginAs(stack.url, 'cy', 'a-long-password'),
    loginAs(stack.url, 'vi', 'a-long-password'),
    loginAs(stack.url, 'admin', 'unleash4all'),
  ]);
});
afterAll(() => stack?.dispose());

describe('configuration', () => {
  it('lists every environment, turns change requests on with approvals clamped to 1-10, and records the change', async () => {
    const before = await lastEventId();
    expect((await stack.admin.get(`${project}/change-requests/config`)).body).toEqual([
      { environment: 'development', type: 'development', changeRequestEnabled: false, requiredApprovals: null },
      { environment: 'production', type: 'production', changeRequestEnabled: false, requiredApprovals: null },
    ]);
    expect(
      (
        await stack.admin.put(`${production}/change-requests/config`, {
          changeRequestsEnabled: true,
          requiredApprovals: 15,
        })
      ).status,
    ).toBe(204);
    expect((await stack.admin.get(`${project}/change-requests/config`)).body[1]).toEqual({
      environment: 'production',
      type: 'production',
      changeRequestEnabled: true,
      requiredApprovals: 10,
    });
    await stack.admin.put(`${production}/change-requests/config`, {
      changeRequestsEnabled: true,
      requiredApprovals: 0,
    });
    expect((await stack.admin.get(`${project}/change-requests/config`)).body[1].requiredApprovals).toBe(1);
    await stack.admin.put(`${production}/change-requests/config`, {
      changeRequestsEnabled: true,
      requiredApprovals: 2,
    });
    // The same setting again changes nothing and records nothing.
    await stack.admin.put(`${production}/change-requests/config`, {
      changeRequestsEnabled: true,
      requiredApprovals: 2,
    });
    expect(await eventsSince(before, 3)).toEqual([
      'change-request-configuration-updated:',
      'change-request-configuration-updated:',
      'change-request-configuration-updated:',
    ]);
    expect((await author.put(`${production}/change-requests/config`, { changeRequestsEnabled: false })).status).toBe(
      403,
    );
    expect(
      (await stack.admin.put(`${production}/change-requests/config`, { changeRequestsEnabled: 'yes' })).status,
    ).toBe(400);
  });
});

describe('the direct routes where change requests are on', () => {
  it('refuse editors and API tokens, naming the permission that would let them, and leave development alone', async () => {
    for (const client of [author, stack.admin]) {
      const refused = await client.post(`${flag('checkout')}/environments/production/on`);
      expect(refused.status).toBe(403);
      expect(refused.body.name).toBe('NoAccessError');
      expect(refused.body.message).toContain('SKIP_CHANGE_REQUEST');
    }
    const attempts = await Promise.all([
      author.post(`${flag('checkout')}/environments/production/strategies`, { name: 'default' }),
      author.put(`${flag('checkout')}/environments/production/variants`, [{ name: 'a', weight: 0 }]),
      author.put(`${flag('checkout')}/variants-batch`, {
        variants: [{ name: 'a', weight: 0 }],
        environments: ['development', 'production'],
      }),
      stack.admin.post('/api/admin/features-batch/import', {
        project: 'shop',
        environment: 'production',
        data: { features: [], featureStrategies: [], tagTypes: [] },
      }),
    ]);
    expect(attempts.map((reply) => reply.status)).toEqual([403, 403, 403, 403]);
    expect((await environmentOf('checkout')).strategies).toEqual([]);
    expect((await author.post(`${flag('checkout')}/environments/development/on`)).status).toBe(200);
  });

  it('refuse archiving a flag that is on there, changing its dependencies, and a segment it uses; an admin user may', async () => {
    // An admin may skip change requests (admins hold every permission), as in Unleash.
    expect((await adminUser.post(`${flag('banner')}/environments/production/on`)).status).toBe(200);
    const segment = await stack.admin.post('/api/admin/segments', { name: 'vips', constraints: [] });
    expect(
      (
        await adminUser.post(`${flag('banner')}/environments/production/strategies`, {
          name: 'default',
          segments: [segment.body.id],
        })
      ).status,
    ).toBe(200);
    expect((await author.delete(flag('banner'))).status).toBe(403);
    expect((await author.post(`${project}/archive`, { features: ['banner'] })).status).toBe(403);
    expect((await author.post(`${flag('banner')}/dependencies`, { feature: 'parent' })).status).toBe(403);
    expect(
      (
        await stack.admin.put(`/api/admin/segments/${segment.body.id}`, {
          name: 'vips',
          constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }],
        })
      ).status,
    ).toBe(403);
    // Deleting a segment in use is refused on its own account (it is in use); nothing changes either way.
    expect((await stack.admin.delete(`/api/admin/segments/${segment.body.id}`)).status).toBe(409);
    // Archiving is refused in a project with change requests on, even for a flag that is off there (as in Unleash).
    expect((await author.delete(flag('parent'))).status).toBe(403);
    expect((await author.post(`${project}/archive`, { features: ['parent'] })).status).toBe(403);
    expect((await stack.admin.get(flag('parent'))).body.archived).toBe(false);
  });

  it('refuse a service account, even with the Admin role, as they refuse API tokens: it is not a person', async () => {
    const account = await stack.admin.post('/api/admin/service-account', { username: 'deploy-bot', rootRole: 'Admin' });
    const token = await stack.admin.post(`/api/admin/service-account/${account.body.id}/token`, {
      description: 'ci',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const bot = httpClient(stack.url, { authorization: token.body.secret });
    const refused = await bot.post(`${flag('checkout')}/environments/production/on`);
    expect([refused.status, refused.body.name]).toEqual([403, 'NoAccessError']);
    expect((await environmentOf('checkout')).enabled).toBe(false);
    expect((await bot.post(`${flag('checkout')}/environments/development/off`)).status).toBe(200);
  });

  it('refuse a project owner removing the environment from the project, which would wipe its configuration', async () => {
    await stack.admin.post('/api/admin/user-admin', {
      username: 'owen',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const owen = await loginAs(stack.url, 'owen', 'a-long-password');
    expect((await owen.post('/api/admin/projects', { id: 'owens', name: "Owen's" })).status).toBe(403);
    const owner = (await stack.admin.get('/api/admin/roles')).body.roles.find(
      (role: { name: string }) => role.name === 'Owner',
    );
    const owenId = (await stack.admin.get('/api/admin/user-admin')).body.users.find(
      (user: { username: string }) => user.username === 'owen',
    ).id;
    expect((await stack.admin.post(`${project}/access`, { roles: [owner.id], users: [owenId] })).status).toBeLessThan(
      300,
    );
    const refused = await owen.delete(`${project}/environments/production`);
    expect(refused.status).toBe(403);
    expect(
      (await stack.admin.get(`${project}/change-requests/config`)).body.map(
        (entry: { environment: string }) => entry.environment,
      ),
    ).toContain('production');
    expect(await environmentOf('banner')).toMatchObject({ enabled: true });
  });

  it('refuse a change request of another project changing a global segment used here, when proposed and when applied', async () => {
    await stack.admin.post('/api/admin/projects', { id: 'other', name: 'Other' });
    await stack.admin.put('/api/admin/projects/other/environments/production/change-requests/config', {
      changeRequestsEnabled: true,
      requiredApprovals: 1,
    });
    await stack.admin.post('/api/admin/user-admin', {
      username: 'rosa',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const rosaId = (await stack.admin.get('/api/admin/user-admin')).body.users.find(
      (user: { username: string }) => user.username === 'rosa',
    ).id;
    const owner = (await stack.admin.get('/api/admin/roles')).body.roles.find(
      (role: { name: string }) => role.name === 'Owner',
    );
    await stack.admin.post('/api/admin/projects/other/access', { roles: [owner.id], users: [rosaId] });
    const rosa = await loginAs(stack.url, 'rosa', 'a-long-password');
    const shared = await stack.admin.post('/api/admin/segments', { name: 'shared', constraints: [] });
    const change = {
      action: 'updateSegment',
      payload: {
        id: shared.body.id,
        name: 'shared',
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['x'] }],
      },
    };
    // Unused, the global segment is still not rosa's to change: she owns a project, not the instance's segments.
    expect((await rosa.post('/api/admin/projects/other/environments/production/change-requests', change)).status).toBe(
      403,
    );
    // A request of "other" proposed by someone who may change global segments, before the segment is used in shop...
    const drafted = await stack.admin.post('/api/admin/projects/other/environments/production/change-requests', change);
    expect(drafted.status).toBe(200);
    // ...then the segment is used in shop's production, where that request is not approved: it cannot be applied.
    expect(
      (
        await adminUser.post(`${flag('banner')}/environments/production/strategies`, {
          name: 'default',
          segments: [shared.body.id],
        })
      ).status,
    ).toBe(200);
    await stack.admin.put(`/api/admin/projects/other/change-requests/${drafted.body.id}/state`, { state: 'In review' });
    expect(
      (await approver.put(`/api/admin/projects/other/change-requests/${drafted.body.id}/state`, { state: 'Approved' }))
        .body.state,
    ).toBe('Approved');
    // Applied by someone who may not skip change requests in shop (an admin could: they may skip them anywhere).
    const applied = await approver.put(`/api/admin/projects/other/change-requests/${drafted.body.id}/state`, {
      state: 'Applied',
    });
    expect(applied.status).toBe(403);
    expect(applied.body.message).toContain('"shop" in the "production" environment');
    expect((await stack.admin.get(`/api/admin/segments/${shared.body.id}`)).body.constraints).toEqual([]);
    // Proposed now, it is refused at once.
    expect(
      (await stack.admin.post('/api/admin/projects/other/environments/production/change-requests', change)).status,
    ).toBe(403);
  });
});

describe('a change request', () => {
  let id: number;

  it("collects the author's changes in one draft, checked as the direct routes check them", async () => {
    const before = await lastEventId();
    const first = await propose(author, { feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } });
    expect(first.status).toBe(200);
    id = first.body.id;
    expect(first.body).toMatchObject({
      id,
      environment: 'production',
      project: 'shop',
      state: 'Draft',
      minApprovals: 2,
      createdBy: { username: 'ana' },
    });
    const second = await propose(author, [
      {
        feature: 'checkout',
        action: 'addStrategy',
        payload: { name: 'flexibleRollout', parameters: { rollout: '25' }, constraints: [] },
      },
    ]);
    expect(second.body.id).toBe(id);
    expect(second.body.features).toEqual([
      {
        name: 'checkout',
        changes: [
          expect.objectContaining({
            action: 'updateEnabled',
            payload: { enabled: true },
            createdBy: { username: 'ana', imageUrl: null },
          }),
          expect.objectContaining({
            action: 'addStrategy',
            payload: expect.objectContaining({ name: 'flexibleRollout' }),
          }),
        ],
      },
    ]);
    expect(second.body.stateTimestamps.Draft).toEqual(expect.any(String));
    expect(await eventsSince(before, 3)).toEqual([
      `change-request-created:${id}`,
      `change-added:${id}`,
      `change-added:${id}`,
    ]);

    // Refused whole, as the direct route would refuse it, and nothing added.
    const bad = await propose(author, [
      {
        feature: 'checkout',
        action: 'addStrategy',
        payload: {
          name: 'flexibleRollout',
          constraints: [{ contextName: 'userId', operator: 'NUM_GT', value: 'ten' }],
        },
      },
    ]);
    expect(bad.status).toBe(400);
    expect(
      (await propose(author, { feature: 'no-such-flag', action: 'updateEnabled', payload: { enabled: true } })).status,
    ).toBe(404);
    expect(
      (await propose(author, { feature: 'checkout', action: 'addReleasePlan', payload: { templateId: 'x' } })).status,
    ).toBe(400);
    expect(
      (
        await propose(
          author,
          { feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } },
          'development',
        )
      ).status,
    ).toBe(400);
    expect(
      (await propose(viewer, { feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } })).status,
    ).toBe(403);
    expect((await author.get(`${project}/change-requests/${id}`)).body.features[0].changes).toHaveLength(2);
  });

  it('goes to review, needs two approvals from people other than its author, and is applied all at once', async () => {
    const before = await lastEventId();
    expect((await setState(approver, id, { state: 'In review' })).status).toBe(403);
    expect((await setState(author, id, { state: 'In review' })).body.state).toBe('In review');
    expect((await setState(author, id, { state: 'Approved' })).status).toBe(403);
    expect((await setState(viewer, id, { state: 'Approved' })).status).toBe(403);
    expect((await setState(stack.admin, id, { state: 'Approved' })).status).toBe(403);
    const one = await setState(approver, id, { state: 'Approved', comment: 'Looks right' });
    expect(one.body).toMatchObject({
      state: 'In review',
      approvals: [{ createdBy: { username: 'bo' } }],
      comments: [{ text: 'Looks right', createdBy: { username: 'bo' } }],
    });
    expect((await setState(approver, id, { state: 'Approved' })).status).toBe(400);
    expect((await author.put(`${project}/change-requests/${id}/state`, { state: 'Applied' })).status).toBe(400);
    const two = await setState(second, id, { state: 'Approved' });
    expect(two.body.state).toBe('Approved');
    expect(
      two.body.approvals.map((approval: { createdBy: { username: string } }) => approval.createdBy.username),
    ).toEqual(['bo', 'cy']);

    expect((await setState(viewer, id, { state: 'Applied' })).status).toBe(403);
    const applied = await setState(author, id, { state: 'Applied' });
    expect(applied.body.state).toBe('Applied');
    expect(Object.keys(applied.body.stateTimestamps).sort()).toEqual(['Applied', 'Approved', 'Draft', 'In review']);
    const state = await environmentOf('checkout');
    expect(state.enabled).toBe(true);
    expect(
      state.strategies.map((strategy: { name: string; parameters: { rollout: string } }) => [
        strategy.name,
        strategy.parameters.rollout,
      ]),
    ).toEqual([['flexibleRollout', '25']]);
    expect(await eventsSince(before, 5)).toEqual([
      `change-request-sent-to-review:${id}`,
      `change-request-approval-added:${id}`,
      `change-request-approval-added:${id}`,
      `change-request-approved:${id}`,
      `change-request-applied:${id}`,
    ]);
    // The configuration events are the direct routes' own, written with the applied request.
    const { body } = await stack.admin.get('/api/admin/events?project=shop');
    const configuration = (body.events as { id: number; type: string; environment: string }[])
      .filter((event) => event.id > before && event.environment === 'production' && !event.type.startsWith('change'))
      .map((event) => event.type);
    expect(configuration.sort()).toEqual(['feature-environment-enabled', 'feature-strategy-add']);
    expect((await setState(author, id, { state: 'Cancelled' })).status).toBe(400);
  });

  it('goes back to review when a change is edited after approval, with its approvals cleared', async () => {
    await stack.admin.put(`${production}/change-requests/config`, {
      changeRequestsEnabled: true,
      requiredApprovals: 1,
    });
    const draft = (await propose(author, { feature: 'banner', action: 'updateEnabled', payload: { enabled: false } }))
      .body;
    await setState(author, draft.id, { state: 'In review' });
    expect((await setState(approver, draft.id, { state: 'Approved' })).body.state).toBe('Approved');
    const changeId = draft.features[0].changes[0].id;
    const before = await lastEventId();
    const edited = await author.put(`${project}/change-requests/${draft.id}/changes/${changeId}`, {
      feature: 'banner',
      action: 'updateEnabled',
      payload: { enabled: true },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ state: 'In review', approvals: [] });
    expect(edited.body.features[0].changes[0].id).not.toBe(changeId);
    expect(await eventsSince(before, 1)).toEqual([`change-edited:${draft.id}`]);
    expect(
      (
        await approver.put(`${project}/change-requests/${draft.id}/changes/${edited.body.features[0].changes[0].id}`, {
          feature: 'banner',
          action: 'updateEnabled',
          payload: { enabled: false },
        })
      ).status,
    ).toBe(403);

    const discarded = await author.delete(
      `${project}/change-requests/${draft.id}/changes/${edited.body.features[0].changes[0].id}`,
    );
    expect(discarded.status).toBe(200);
    expect((await author.get(`${project}/change-requests/${draft.id}`)).body.features).toEqual([]);
    expect((await setState(author, draft.id, { state: 'Cancelled' })).body.state).toBe('Cancelled');
    expect(await eventsSince(before, 3)).toEqual([
      `change-edited:${draft.id}`,
      `change-discarded:${draft.id}`,
      `change-request-cancelled:${draft.id}`,
    ]);
  });

  it('is refused whole when something it changes was changed since, naming the conflict', async () => {
    const strategy = (await environmentOf('banner')).strategies[0];
    const draft = (
      await propose(author, [
        { feature: 'banner', action: 'updateEnabled', payload: { enabled: false } },
        {
          feature: 'banner',
          action: 'updateStrategy',
          payload: { ...strategy, parameters: { ...strategy.parameters, custom: 'x' } },
        },
      ])
    ).body;
    await setState(author, draft.id, { state: 'In review' });
    await setState(approver, draft.id, { state: 'Approved' });
    // Untouched since it was drafted, the strategy is no conflict (its snapshot reads back from jsonb in another key order).
    expect(
      (await author.get(`${project}/change-requests/${draft.id}`)).body.features[0].changes[1].conflict,
    ).toBeUndefined();
    // Meanwhile an admin changes the same strategy directly.
    expect(
      (
        await adminUser.put(`${flag('banner')}/environments/production/strategies/${strategy.id}`, {
          ...strategy,
          title: 'edited meanwhile',
        })
      ).status,
    ).toBe(200);
    const view = (await author.get(`${project}/change-requests/${draft.id}`)).body;
    expect(view.features[0].changes[1].conflict).toBe('The strategy has been changed since this change was drafted');
    expect(view.features[0].changes[0].conflict).toBeUndefined();
    const refused = await setState(author, draft.id, { state: 'Applied' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('The strategy has been changed since this change was drafted');
    expect((await author.get(`${project}/change-requests/${draft.id}`)).body.state).toBe('Approved');
    expect((await environmentOf('banner')).enabled).toBe(true);
    // Rejected by a reviewer; a rejected request is done.
    const rejected = await setState(second, draft.id, { state: 'Rejected', comment: 'Out of date' });
    expect(rejected.body).toMatchObject({ state: 'Rejected', rejections: [{ createdBy: { username: 'cy' } }] });
    expect((await setState(approver, draft.id, { state: 'Approved' })).status).toBe(400);
  });

  it('has a title, comments, requested reviewers, and shows in the counts, lists and search', async () => {
    const draft = (
      await propose(author, { feature: 'parent', action: 'addDependency', payload: { feature: 'checkout' } })
    ).body;
    expect(
      (await author.put(`${project}/change-requests/${draft.id}/title`, { title: 'Make parent depend on checkout' }))
        .status,
    ).toBe(204);
    expect((await approver.put(`${project}/change-requests/${draft.id}/title`, { title: 'mine now' })).status).toBe(
      403,
    );
    expect((await viewer.post(`${project}/change-requests/${draft.id}/comments`, { text: 'Why?' })).status).toBe(204);
    const bo = (await stack.admin.get('/api/admin/user-admin')).body.users.find(
      (user: { username: string }) => user.username === 'bo',
    );
    expect((await author.put(`${project}/change-requests/${draft.id}/approvers`, { reviewers: [bo.id] })).status).toBe(
      204,
    );
    expect((await author.put(`${project}/change-requests/${draft.id}/approvers`, { reviewers: [99_999] })).status).toBe(
      400,
    );
    expect((await author.get(`${project}/change-requests/${draft.id}/approvers`)).body.reviewers).toEqual([
      expect.objectContaining({ id: bo.id, username: 'bo' }),
    ]);
    const view = (await author.get(`${project}/change-requests/${draft.id}`)).body;
    expect(view).toMatchObject({
      title: 'Make parent depend on checkout',
      comments: [{ text: 'Why?', createdBy: { username: 'vi' } }],
    });

    const reviewers = (
      await author.get(`${project}/change-requests/available-reviewers/production`)
    ).body.reviewers.map((user: { username: string }) => user.username);
    expect(reviewers).toEqual(expect.arrayContaining(['admin', 'ana', 'bo', 'cy']));
    expect(reviewers).not.toContain('vi');

    expect((await author.get(`${project}/change-requests/count`)).body).toEqual({
      total: 4,
      applied: 1,
      rejected: 1,
      reviewRequired: 0,
      approved: 0,
      scheduled: 0,
    });
    expect(
      (await author.get(`${project}/change-requests/pending`)).body.map((request: { id: number }) => request.id),
    ).toEqual([draft.id]);
    expect((await approver.get(`${project}/change-requests/open`)).body).toEqual([]);
    expect(
      (await author.get(`${project}/change-requests/pending/parent`)).body.map((request: { id: number }) => request.id),
    ).toEqual([draft.id]);
    expect((await author.get(`${project}/change-requests`)).body).toHaveLength(4);
    const search = await author.get(`/api/admin/search/change-requests?requestedApproverId=IS:${bo.id}&state=IS:open`);
    expect(search.body).toEqual({
      total: 1,
      changeRequests: [
        expect.objectContaining({
          id: draft.id,
          features: ['parent'],
          segments: [],
          state: 'Draft',
          title: 'Make parent depend on checkout',
        }),
      ],
    });
    expect((await author.get('/api/admin/search/change-requests?state=IS:closed')).body.total).toBe(3);
    expect((await author.get('/api/admin/search/change-requests?createdBy=bob')).status).toBe(400);

    const before = await lastEventId();
    expect((await approver.delete(`${project}/change-requests/${draft.id}`)).status).toBe(403);
    expect((await author.delete(`${project}/change-requests/${draft.id}`)).status).toBe(200);
    expect((await author.get(`${project}/change-requests/${draft.id}`)).status).toBe(404);
    expect(await eventsSince(before, 1)).toEqual([`change-request-discarded:${draft.id}`]);
  });
});

describe('custom project roles', () => {
  it('can let a viewer approve in production, and someone skip change requests there', async () => {
    const reviewer = await stack.admin.post('/api/admin/roles', {
      name: 'Production reviewer',
      type: 'custom',
      permissions: [{ name: 'APPROVE_CHANGE_REQUEST', environment: 'production' }],
    });
    const skipper = await stack.admin.post('/api/admin/roles', {
      name: 'Production skipper',
      type: 'custom',
      permissions: [
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
        { name: 'SKIP_CHANGE_REQUEST', environment: 'production' },
      ],
    });
    expect([reviewer.status, skipper.status]).toEqual([200, 200]);
    const users = (await stack.admin.get('/api/admin/user-admin')).body.users as { id: number; username: string }[];
    const vi = users.find((user) => user.username === 'vi')!;
    await stack.admin.post('/api/admin/user-admin', {
      username: 'sam',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const sam = (await stack.admin.get('/api/admin/user-admin')).body.users.find(
      (user: { username: string }) => user.username === 'sam',
    );
    expect(
      (await stack.admin.post(`${project}/access`, { roles: [reviewer.body.id], users: [vi.id] })).status,
    ).toBeLessThan(300);
    expect(
      (await stack.admin.post(`${project}/access`, { roles: [skipper.body.id], users: [sam.id] })).status,
    ).toBeLessThan(300);
    const [viAgain, samClient] = await Promise.all([
      loginAs(stack.url, 'vi', 'a-long-password'),
      loginAs(stack.url, 'sam', 'a-long-password'),
    ]);

    const draft = (await propose(author, { feature: 'parent', action: 'updateEnabled', payload: { enabled: true } }))
      .body;
    await setState(author, draft.id, { state: 'In review' });
    expect((await setState(viAgain, draft.id, { state: 'Approved' })).body.state).toBe('Approved');
    expect(
      (await author.get(`${project}/change-requests/available-reviewers/production`)).body.reviewers.map(
        (user: { username: string }) => user.username,
      ),
    ).toContain('vi');
    expect((await setState(author, draft.id, { state: 'Cancelled' })).body.state).toBe('Cancelled');

    expect((await samClient.post(`${flag('parent')}/environments/production/on`)).status).toBe(200);
    expect((await environmentOf('parent')).enabled).toBe(true);
  });
});

describe('scheduled change requests', () => {
  async function approvedRequest(body: unknown) {
    const draft = (await propose(author, body)).body;
    await setState(author, draft.id, { state: 'In review' });
    await setState(approver, draft.id, { state: 'Approved' });
    return draft.id as number;
  }

  it('are applied when their time comes, as the person who scheduled them', async () => {
    const id = await approvedRequest({ feature: 'banner', action: 'updateEnabled', payload: { enabled: false } });
    expect(
      (await setState(author, id, { state: 'Scheduled', scheduledAt: new Date(Date.now() - 1000).toISOString() }))
        .status,
    ).toBe(400);
    expect(
      (
        await setState(stack.admin, id, {
          state: 'Scheduled',
          scheduledAt: new Date(Date.now() + 60_000).toISOString(),
        })
      ).status,
    ).toBe(403);
    const before = await lastEventId();
    const at = new Date(Date.now() + 1500).toISOString();
    const scheduled = await setState(approver, id, { state: 'Scheduled', scheduledAt: at });
    expect(scheduled.body).toMatchObject({ state: 'Scheduled', schedule: { scheduledAt: at, status: 'pending' } });
    expect((await author.get(`${project}/change-requests/scheduled?feature=banner`)).body).toEqual([
      { id, environment: 'production' },
    ]);
    expect((await author.get(`${project}/change-requests/scheduled`)).body).toEqual([]);
    await eventually(async () => (await author.get(`${project}/change-requests/${id}`)).body.state === 'Applied', {
      timeoutMs: 10_000,
    });
    expect((await environmentOf('banner')).enabled).toBe(false);
    expect(await eventsSince(before, 3)).toEqual([
      `change-request-scheduled:${id}`,
      `change-request-applied:${id}`,
      `change-request-scheduled-application-success:${id}`,
    ]);
    const applied = (await stack.admin.get('/api/admin/events?project=shop')).body.events.find(
      (event: { type: string; data: { changeRequestId?: number } | null }) =>
        event.type === 'change-request-applied' && event.data?.changeRequestId === id,
    );
    expect(applied.createdBy).toBe('bo');
  });

  it('fail, with the reason, when their changes conflict at that time', async () => {
    const strategy = (await environmentOf('banner')).strategies[0];
    const id = await approvedRequest({ feature: 'banner', action: 'deleteStrategy', payload: { id: strategy.id } });
    // Scheduled well ahead, so the conflicting change surely comes first however slow the machine; then moved near.
    await setState(approver, id, { state: 'Scheduled', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await adminUser.delete(`${flag('banner')}/environments/production/strategies/${strategy.id}`)).status).toBe(
      200,
    );
    await setState(approver, id, { state: 'Scheduled', scheduledAt: new Date(Date.now() + 500).toISOString() });
    const failed = await eventually(
      async () => {
        const { body } = await author.get(`${project}/change-requests/${id}`);
        return body.schedule?.status === 'failed' && body;
      },
      { timeoutMs: 10_000 },
    );
    expect(failed).toMatchObject({
      state: 'Scheduled',
      schedule: { status: 'failed', reason: expect.stringContaining('already been deleted') },
    });
    // The event log takes its events from the stream: the failure is there once the log has caught up.
    const failures = async () =>
      (
        (await stack.admin.get('/api/admin/events?project=shop')).body.events as {
          type: string;
          data: { changeRequestId?: number } | null;
        }[]
      ).filter(
        (event) => event.type === 'change-request-scheduled-application-failure' && event.data?.changeRequestId === id,
      );
    await eventually(async () => (await failures()).length > 0);
    expect(await failures()).toHaveLength(1);
  });

  it('are suspended when the person who scheduled them is deleted', async () => {
    const id = await approvedRequest({ feature: 'checkout', action: 'updateEnabled', payload: { enabled: false } });
    await setState(second, id, { state: 'Scheduled', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    const cy = (await stack.admin.get('/api/admin/user-admin')).body.users.find(
      (user: { username: string }) => user.username === 'cy',
    );
    expect((await stack.admin.delete(`/api/admin/user-admin/${cy.id}`)).status).toBe(200);
    const suspended = await eventually(
      async () => {
        const { body } = await author.get(`${project}/change-requests/${id}`);
        return body.schedule?.status === 'suspended' && body;
      },
      { timeoutMs: 10_000 },
    );
    expect(suspended.schedule.reason).toContain(`user id: ${cy.id}`);
    expect((await environmentOf('checkout')).enabled).toBe(true);
  });
});
