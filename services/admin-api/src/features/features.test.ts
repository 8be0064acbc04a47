import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.dispose());

const base = '/api/admin/projects/default/features';

/** Events written for a feature, oldest first, once at least `count` have arrived. */
async function featureEvents(feature: string, count: number) {
  return eventually(async () => {
    const reply = await stack.admin.post('/api/admin/events/search', { feature });
    const events = (reply.body.events as { type: string }[]).slice().reverse();
    return events.length >= count && events;
  });
}

describe('features', () => {
  it('creates a feature with the reference 201 body and refuses duplicates and bad names', async () => {
    const created = await stack.admin.post(base, {
      name: 'checkout-v2',
      description: 'new checkout',
      impressionData: true,
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual([
      'archived',
      'createdAt',
      'description',
      'impressionData',
      'name',
      'project',
      'stale',
      'type',
    ]);
    expect(created.body).toMatchObject({
      name: 'checkout-v2',
      type: 'release',
      project: 'default',
      stale: false,
      impressionData: true,
      archived: false,
    });

    expect((await stack.admin.post(base, { name: 'checkout-v2' })).status).toBe(409);
    for (const body of [{ name: 'has space' }, {}, { name: 3 }, { name: 'ok-name', type: 'nonsense' }]) {
      const reply = await stack.admin.post(base, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.name).toBe('ValidationError');
    }
    expect((await stack.admin.post('/api/admin/projects/nope/features', { name: 'x-in-nope' })).status).toBe(404);
    const malformed = await stack.admin.post(base, '{"name": "broken', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.name).toBe('ValidationError');
    expect((await featureEvents('checkout-v2', 1)).map((e) => e.type)).toEqual(['feature-created']);
  });

  it('updates metadata with PUT and PATCH, writing events only for real changes', async () => {
    await stack.admin.post(base, { name: 'meta-flag' });
    const put = await stack.admin.put(`${base}/meta-flag`, { description: 'now described', type: 'experiment' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ description: 'now described', type: 'experiment' });
    expect((await stack.admin.put(`${base}/meta-flag`, { description: 'now described' })).status).toBe(200);
    const patch = await stack.admin.patch(`${base}/meta-flag`, [{ op: 'replace', path: '/stale', value: true }]);
    expect(patch.status).toBe(200);
    expect(patch.body.stale).toBe(true);
    const badPatch = await stack.admin.patch(`${base}/meta-flag`, [
      { op: 'replace', path: '/type', value: 'nonsense' },
    ]);
    expect(badPatch.status).toBe(400);
    const types = (await featureEvents('meta-flag', 3)).map((e) => e.type);
    expect(types).toEqual(['feature-created', 'feature-metadata-updated', 'feature-stale-on']);
  });

  it('adds strategies with constraints and variants, enables, reorders and removes them', async () => {
    await stack.admin.post(base, { name: 'rollout-flag' });
    const strategies = `${base}/rollout-flag/environments/development/strategies`;
    const added = await stack.admin.post(strategies, {
      name: 'flexibleRollout',
      title: 'half of listed users',
      parameters: { rollout: 50 },
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] },
        { contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.2.3' },
        { contextName: 'age', operator: 'NUM_GTE', value: '18', inverted: true },
      ],
      variants: [
        {
          name: 'blue',
          weight: 0,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'string', value: 'b' },
        },
        { name: 'Alpha', weight: 200, weightType: 'fix', stickiness: 'default' },
        { name: 'green', weight: 0, weightType: 'variable', stickiness: 'default' },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body.parameters).toEqual({ rollout: '50', groupId: 'rollout-flag', stickiness: 'default' });
    expect(added.body.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([
      ['Alpha', 200],
      ['blue', 400],
      ['green', 400],
    ]);
    expect(added.body.constraints[0]).toEqual({
      contextName: 'userId',
      operator: 'IN',
      values: ['u1', 'u2'],
      caseInsensitive: false,
      inverted: false,
    });

    for (const body of [
      { name: 'noSuchStrategy' },
      { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: [] }] },
      { name: 'default', constraints: [{ contextName: 'x', operator: 'NUM_GT', value: 'ten' }] },
      { name: 'default', constraints: [{ contextName: 'x', operator: 'BOGUS', values: ['a'] }] },
      { name: 'default', constraints: [{ contextName: 'x', operator: 'DATE_AFTER', value: 'not-a-date' }] },
      { name: 'flexibleRollout', parameters: { rollout: '150' } },
      { name: 'default', variants: [{ name: 'a', weight: 500, weightType: 'fix', stickiness: 'default' }] },
      { name: 'default', variants: [{ name: 'a', weight: 1001, weightType: 'variable', stickiness: 'default' }] },
      { name: 'default', segments: [9999] },
    ]) {
      const reply = await stack.admin.post(strategies, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await stack.admin.post(`${base}/rollout-flag/environments/nope/strategies`, { name: 'default' })).status,
    ).toBe(400); // as Unleash: the environment is not the project's
    expect(
      (await stack.admin.post(`${base}/no-such-flag/environments/development/strategies`, { name: 'default' })).status,
    ).toBe(404);

    const second = await stack.admin.post(strategies, { name: 'userWithId', parameters: { userIds: 'a,b' } });
    expect((await stack.admin.post(`${base}/rollout-flag/environments/development/on`)).status).toBe(200);
    expect((await stack.admin.post(`${base}/rollout-flag/environments/development/on`)).status).toBe(200);
    const order = [
      { id: second.body.id, sortOrder: 0 },
      { id: added.body.id, sortOrder: 1 },
    ];
    expect((await stack.admin.post(`${strategies}/set-sort-order`, order)).status).toBe(200);
    const listed = await stack.admin.get(strategies);
    expect(listed.body.map((s: { id: string }) => s.id)).toEqual([second.body.id, added.body.id]);

    const updated = await stack.admin.put(`${strategies}/${added.body.id}`, {
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'userId', groupId: 'g' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.parameters.rollout).toBe('25');

    expect((await stack.admin.delete(`${strategies}/${second.body.id}`)).status).toBe(200);
    expect((await stack.admin.delete(`${strategies}/${added.body.id}`)).status).toBe(200);
    const feature = await stack.admin.get(`${base}/rollout-flag`);
    const development = feature.body.environments.find((e: { name: string }) => e.name === 'development');
    expect(development.enabled).toBe(false);

    const types = (await featureEvents('rollout-flag', 9)).map((e) => e.type);
    expect(types).toEqual([
      'feature-created',
      'feature-strategy-add',
      'feature-strategy-add',
      'feature-environment-enabled',
      'strategy-order-changed',
      'feature-strategy-update',
      'feature-strategy-remove',
      'feature-strategy-remove',
      'feature-environment-disabled',
    ]);
  });

  it('adds the default strategy when enabling an environment without one', async () => {
    await stack.admin.post(base, { name: 'bare-flag' });
    expect((await stack.admin.post(`${base}/bare-flag/environments/production/on`)).status).toBe(200);
    const strategies = await stack.admin.get(`${base}/bare-flag/environments/production/strategies`);
    expect(strategies.body).toHaveLength(1);
    expect(strategies.body[0]).toMatchObject({
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'default', groupId: 'bare-flag' },
    });
    const feature = await stack.admin.get(`${base}/bare-flag`);
    expect(feature.body.lifecycle.stage).toBe('live');
    expect((await featureEvents('bare-flag', 3)).map((e) => e.type)).toEqual([
      'feature-created',
      'feature-strategy-add',
      'feature-environment-enabled',
    ]);
  });

  it('keeps feature-environment variants with weights totalling 1000, sorted by name; the deprecated feature-level variants read production', async () => {
    await stack.admin.post(base, { name: 'variant-flag' });
    const put = await stack.admin.put(`${base}/variant-flag/environments/production/variants`, [
      { name: 'b', weight: 0, weightType: 'variable', stickiness: 'default' },
      { name: 'a', weight: 0 },
      { name: 'c', weight: 0, overrides: [{ contextName: 'userId', values: ['vip'] }] },
    ]);
    expect(put.status).toBe(200);
    expect(put.body.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([
      ['a', 333],
      ['b', 334],
      ['c', 333],
    ]);
    const legacy = await stack.admin.get(`${base}/variant-flag/variants`);
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual({ version: 1, variants: put.body.variants });
    const bad = await stack.admin.put(`${base}/variant-flag/environments/production/variants`, [
      { name: 'x', weight: 1200, weightType: 'fix' },
    ]);
    expect(bad.status).toBe(400);
    const patched = await stack.admin.patch(`${base}/variant-flag/environments/production/variants`, [
      { op: 'remove', path: '/2' },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body.variants.map((v: { weight: number }) => v.weight)).toEqual([500, 500]);
    const devOnly = await stack.admin.get(`${base}/variant-flag/environments/development/variants`);
    expect(devOnly.body.variants).toEqual([]);
    const types = (await featureEvents('variant-flag', 3)).map((e) => e.type);
    expect(types).toEqual([
      'feature-created',
      'feature-environment-variants-updated',
      'feature-environment-variants-updated',
    ]);
  });

  it('archives, revives and deletes only archived features', async () => {
    await stack.admin.post(base, { name: 'short-lived' });
    expect((await stack.admin.delete(`${base}/short-lived`)).status).toBe(202);
    expect((await stack.admin.delete(`${base}/short-lived`)).status).toBe(202);
    expect((await stack.admin.post(base, { name: 'short-lived' })).status).toBe(409);
    // Archived, the flag is not found (as in Unleash) unless asked for with archived=true.
    expect((await stack.admin.get(`${base}/short-lived`)).status).toBe(404);
    expect((await stack.admin.get('/api/admin/features/short-lived')).status).toBe(404);
    expect((await stack.admin.get(`${base}/short-lived?archived=true`)).body.archived).toBe(true);
    expect(
      (await stack.admin.post(`${base}/short-lived/environments/development/strategies`, { name: 'default' })).status,
    ).toBe(404);
    expect((await stack.admin.post('/api/admin/archive/revive/short-lived')).status).toBe(200);
    expect((await stack.admin.get(`${base}/short-lived`)).body.archived).toBe(false);
    expect((await stack.admin.delete('/api/admin/archive/short-lived')).status).toBe(200);
    expect((await stack.admin.get(`${base}/short-lived`)).status).toBe(200);
    await stack.admin.delete(`${base}/short-lived`);
    expect((await stack.admin.delete('/api/admin/archive/short-lived')).status).toBe(200);
    expect((await stack.admin.get(`${base}/short-lived`)).status).toBe(404);
    const types = (await featureEvents('short-lived', 5)).map((e) => e.type);
    expect(types).toEqual([
      'feature-created',
      'feature-archived',
      'feature-revived',
      'feature-archived',
      'feature-deleted',
    ]);
  });

  it('enforces the project naming pattern and feature limit', async () => {
    const project = await stack.admin.post('/api/admin/projects', {
      id: 'strict',
      name: 'Strict',
      featureLimit: 1,
      featureNaming: { pattern: 'team-[a-z]+', example: 'team-abc' },
    });
    expect(project.status).toBe(201);
    expect((await stack.admin.post('/api/admin/projects/strict/features', { name: 'Team-X' })).status).toBe(400);
    expect((await stack.admin.post('/api/admin/projects/strict/features', { name: 'team-one' })).status).toBe(201);
    expect((await stack.admin.post('/api/admin/projects/strict/features', { name: 'team-two' })).status).toBe(409);
    const badExample = await stack.admin.post('/api/admin/projects', {
      id: 'bad',
      name: 'Bad',
      featureNaming: { pattern: 'a+', example: 'b' },
    });
    expect(badExample.status).toBe(400);
  });

  it('manages dependencies one level deep', async () => {
    await stack.admin.post(base, { name: 'parent-flag' });
    await stack.admin.post(base, { name: 'child-flag' });
    const added = await stack.admin.post(`${base}/child-flag/dependencies`, {
      feature: 'parent-flag',
      enabled: true,
      variants: ['blue'],
    });
    expect(added.status).toBe(200);
    const child = await stack.admin.get(`${base}/child-flag`);
    expect(child.body.dependencies).toEqual([{ feature: 'parent-flag', enabled: true, variants: ['blue'] }]);
    expect((await stack.admin.get(`${base}/parent-flag`)).body.children).toEqual(['child-flag']);
    expect((await stack.admin.post(`${base}/parent-flag/dependencies`, { feature: 'child-flag' })).status).toBe(403);
    expect((await stack.admin.post(`${base}/child-flag/dependencies`, { feature: 'nope' })).status).toBe(403);
    expect((await stack.admin.delete(`${base}/child-flag/dependencies/parent-flag`)).status).toBe(200);
    expect((await featureEvents('child-flag', 3)).map((e) => e.type)).toEqual([
      'feature-created',
      'feature-dependency-added',
      'feature-dependency-removed',
    ]);
  });
});
