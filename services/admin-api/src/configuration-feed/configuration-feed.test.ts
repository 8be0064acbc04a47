import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedDelta, FeedHydration, FeedHydrationPart, type FeedScope } from '@bunting/contracts';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * What admin-api writes to the configuration feed with each change: a delta per environment the change reaches, with
 * the flags and segments it changed; the environment whole where it changed everything; nothing where it reached no
 * environment. Read back from the stream, as an edge reads it.
 */
let stack: TestStack;
const base = '/api/admin/projects/default/features';

beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(() => stack?.dispose());

/** The deltas on a scope's subject, in order. */
async function deltas(scope: FeedScope) {
  const { jsm, names } = stack.messaging;
  const subject = names.feed(scope).delta;
  const info = await jsm.streams.info(names.feedStream, { subjects_filter: subject });
  const found: FeedDelta[] = [];
  for (let seq = 1; seq <= info.state.last_seq; seq += 1) {
    const message = await jsm.streams.getMessage(names.feedStream, { seq }).catch(() => null);
    if (message?.subject === subject) found.push(FeedDelta.parse(message.json()));
  }
  return found;
}

/** The last hydration of a scope, joined and read. */
async function lastHydration(scope: FeedScope) {
  const { jsm, names } = stack.messaging;
  const subjects = names.feed(scope);
  const manifest = FeedHydration.parse(
    (await jsm.streams.getMessage(names.feedStream, { last_by_subj: subjects.hydration }))!.json(),
  );
  const parts = await Promise.all(
    Array.from({ length: manifest.parts }, async (_, index) =>
      Buffer.from(
        FeedHydrationPart.parse(
          (await jsm.streams.getMessage(names.feedStream, {
            last_by_subj: subjects.part(manifest.revision, index + 1),
          }))!.json(),
        ).data,
        'base64',
      ),
    ),
  );
  return {
    revision: manifest.revision,
    body: JSON.parse(gunzipSync(Buffer.concat(parts)).toString('utf8')) as { features: { name: string }[] },
  };
}

describe('the configuration feed', () => {
  it('starts every environment and the token set with a hydration', async () => {
    const development = await eventually(async () => (await deltas({ environment: 'development' })).at(-1));
    expect(development).toMatchObject({ revision: 1, hydration: true, events: [] });
    expect((await lastHydration({ environment: 'development' })).body.features).toEqual([]);
    expect((await lastHydration('tokens')).body).toMatchObject({ tokens: expect.any(Array) });
  });

  it('writes the flags a change touched, in each environment it reaches, at the next revision', async () => {
    const before = (await deltas({ environment: 'development' })).at(-1)!.revision;
    expect((await stack.admin.post(base, { name: 'fed' })).status).toBe(201);
    expect((await stack.admin.post(`${base}/fed/environments/development/on`)).status).toBe(200);
    const development = await eventually(async () => {
      const list = await deltas({ environment: 'development' });
      return list.length >= 3 && list;
    });
    expect(
      development
        .slice(-2)
        .map((delta) => [
          delta.revision,
          delta.events.map((event) =>
            event.type === 'feature-updated' ? [event.type, event.feature.name, event.feature.enabled] : [event.type],
          ),
        ]),
    ).toEqual([
      [before + 1, [['feature-updated', 'fed', false]]],
      [before + 2, [['feature-updated', 'fed', true]]],
    ]);
    // Created in every environment of the project; switched on in development alone.
    expect((await deltas({ environment: 'production' })).slice(-1)[0]!.events).toMatchObject([
      { type: 'feature-updated', feature: { name: 'fed', enabled: false } },
    ]);
  });

  it('writes nothing for what reaches no environment: access, users, settings', async () => {
    const count = async () => (await stack.messaging.jsm.streams.info(stack.messaging.names.feedStream)).state.messages;
    const before = await count();
    const user = await stack.admin.post('/api/admin/user-admin', { username: 'not-fed', rootRole: 'Viewer' });
    expect(
      (await stack.admin.post('/api/admin/projects/default/access', { roles: [4], users: [user.body.id] })).status,
    ).toBeLessThan(300);
    // A later change that does reach an environment: once its delta is there, the two before it wrote nothing.
    await stack.admin.post(base, { name: 'marker' });
    await eventually(async () =>
      (await deltas({ environment: 'development' })).some((delta) =>
        delta.events.some((event) => event.type === 'feature-updated' && event.feature.name === 'marker'),
      ),
    );
    expect((await count()) - before).toBe(2);
  });

  it('writes an environment whole when a change touched all of it, and the token set whole on a token change', async () => {
    const imported = await stack.admin.post('/api/admin/features-batch/import', {
      project: 'default',
      environment: 'development',
      data: {
        features: [{ name: 'imported', type: 'release' }],
        featureStrategies: [],
        featureEnvironments: [{ name: 'imported', featureName: 'imported', environment: 'development', enabled: true }],
        tagTypes: [],
        featureTags: [],
        contextFields: [],
        segments: [],
        dependencies: [],
      },
    });
    expect(imported.status).toBe(200);
    const hydration = await eventually(async () => {
      const last = (await deltas({ environment: 'development' })).at(-1)!;
      return last.hydration && last;
    });
    expect((await lastHydration({ environment: 'development' })).revision).toBe(hydration.revision);
    expect((await lastHydration({ environment: 'development' })).body.features.map((feature) => feature.name)).toEqual([
      'fed',
      'imported',
      'marker',
    ]);
    const tokensBefore = (await lastHydration('tokens')).revision;
    await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'fed-token',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    await eventually(async () => (await lastHydration('tokens')).revision === tokensBefore + 1);
  });
});
