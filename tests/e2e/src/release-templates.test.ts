import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, loginAs, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * Release templates as Unleash's UI and scripts use them: global and per project (`include=root`), milestone by
 * milestone (Unleash 7.4's routes), archived and deleted, each change a settings event named as Unleash names it,
 * and who may make them.
 */
let stack: TestStack;
const templates = '/api/admin/release-plan-templates';
const strategy = (rollout: number) => ({
  name: 'flexibleRollout',
  parameters: { rollout: String(rollout) },
  constraints: [],
});

beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' });
});
afterAll(() => stack?.dispose());

describe('release templates', () => {
  it('are made whole, then milestone by milestone and strategy by strategy, keeping their ids', async () => {
    const created = await stack.admin.post(templates, {
      name: 'Canary',
      description: 'Careful',
      milestones: [{ name: 'One percent', transitionCondition: { intervalMinutes: 30 }, strategies: [strategy(1)] }],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      discriminator: 'template',
      name: 'Canary',
      description: 'Careful',
      project: null,
      archivedAt: null,
      createdAt: expect.any(String),
    });
    const id = created.body.id;
    // The last milestone never keeps a transition.
    expect(created.body.milestones[0].transitionCondition).toBeNull();
    const added = await stack.admin.post(`${templates}/${id}/milestones`, {
      name: 'Everyone',
      strategies: [strategy(100)],
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({
      name: 'Everyone',
      sortOrder: 1,
      releasePlanDefinitionId: id,
      strategies: [{ name: 'flexibleRollout', strategyName: 'flexibleRollout', milestoneId: added.body.id }],
    });
    const first = (await stack.admin.get(`${templates}/${id}`)).body.milestones[0];
    const changed = await stack.admin.put(`${templates}/${id}/milestones/${first.id}`, {
      name: 'One percent',
      transitionCondition: { intervalMinutes: 45 },
    });
    expect(changed.body).toMatchObject({
      id: first.id,
      transitionCondition: { intervalMinutes: 45 },
      strategies: [{ id: first.strategies[0].id }],
    });
    const strategyChanged = await stack.admin.put(
      `${templates}/${id}/milestones/${first.id}/strategies/${first.strategies[0].id}`,
      strategy(2),
    );
    expect(strategyChanged.body).toMatchObject({ id: first.strategies[0].id, parameters: { rollout: '2' } });
    expect(
      (await stack.admin.post(`${templates}/${id}/milestones/${first.id}/strategies`, strategy(5))).body.strategies,
    ).toHaveLength(2);
    expect(
      (await stack.admin.delete(`${templates}/${id}/milestones/${first.id}/strategies/${first.strategies[0].id}`))
        .status,
    ).toBe(200);
    expect((await stack.admin.delete(`${templates}/${id}/milestones/${added.body.id}`)).status).toBe(200);
    const now = (await stack.admin.get(`${templates}/${id}`)).body;
    expect(now.milestones.map((milestone: { name: string }) => milestone.name)).toEqual(['One percent']);
    expect(
      now.milestones[0].strategies.map((one: { parameters: { rollout: string } }) => one.parameters.rollout),
    ).toEqual(['5']);
    // PUT makes the milestones again from the body, keeping the ids it names.
    expect(
      (
        await stack.admin.put(`${templates}/${id}`, {
          name: 'Canary',
          milestones: [{ id: first.id, name: 'Renamed' }, { name: 'Later' }],
        })
      ).status,
    ).toBe(200);
    const replaced = (await stack.admin.get(`${templates}/${id}`)).body;
    expect(
      replaced.milestones.map((milestone: { id: string; name: string }) => [milestone.id === first.id, milestone.name]),
    ).toEqual([
      [true, 'Renamed'],
      [false, 'Later'],
    ]);
    await eventually(
      async () =>
        (await stack.admin.get('/api/admin/search/events?query=release-plan-template-updated')).body.events.length > 0,
    );
  });

  it('of a project are seen there, with the global ones on asking, and archived ones cannot be applied', async () => {
    const own = await stack.admin.post('/api/admin/projects/shop/release-templates', {
      name: 'Shop rollout',
      milestones: [{ name: 'All', strategies: [strategy(100)] }],
    });
    expect(own.body.project).toBe('shop');
    const listed = (await stack.admin.get('/api/admin/projects/shop/release-templates')).body.map(
      (one: { name: string }) => one.name,
    );
    expect(listed).toEqual(['Shop rollout']);
    const withRoot = (await stack.admin.get('/api/admin/projects/shop/release-templates?include=root')).body.map(
      (one: { name: string }) => one.name,
    );
    expect(withRoot).toEqual(expect.arrayContaining(['Shop rollout', 'Canary']));
    expect((await stack.admin.get(templates)).body.map((one: { name: string }) => one.name)).not.toContain(
      'Shop rollout',
    );
    // A project's template is not another project's.
    await stack.admin.post('/api/admin/projects/default/features', { name: 'elsewhere' });
    expect(
      (
        await stack.admin.post(
          '/api/admin/projects/default/features/elsewhere/environments/development/release-plans',
          { templateId: own.body.id },
        )
      ).status,
    ).toBe(400);
    expect((await stack.admin.post(`/api/admin/projects/shop/release-templates/archive/${own.body.id}`)).status).toBe(
      200,
    );
    expect((await stack.admin.get(`${templates}/${own.body.id}`)).body.archivedAt).toEqual(expect.any(String));
    await stack.admin.post('/api/admin/projects/shop/features', { name: 'cart' });
    const refused = await stack.admin.post(
      '/api/admin/projects/shop/features/cart/environments/development/release-plans',
      { templateId: own.body.id },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('archived');
    // Archived names are free again; deleting removes it for good.
    expect(
      (await stack.admin.post('/api/admin/projects/shop/release-templates', { name: 'Shop rollout' })).status,
    ).toBe(200);
    expect((await stack.admin.delete(`${templates}/${own.body.id}`)).status).toBe(200);
    expect((await stack.admin.get(`${templates}/${own.body.id}`)).status).toBe(404);
  });

  it('are made by admins or those a role lets, not by editors or viewers', async () => {
    await stack.admin.post('/api/admin/user-admin', {
      username: 'temple',
      password: 'a-long-password',
      rootRole: 'Editor',
    });
    const editor = await loginAs(stack.url, 'temple', 'a-long-password');
    const refused = await editor.post(templates, { name: 'Not mine' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('RELEASE_PLAN_TEMPLATE_CREATE');
    expect((await editor.get(templates)).status).toBe(200);
    expect((await editor.post('/api/admin/projects/shop/release-templates', { name: 'Nor this' })).status).toBe(403);
  });
});
