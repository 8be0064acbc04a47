import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from './event-types.ts';
import { changesAnswers, reachOf } from './change-reach.ts';

describe('which environments a change reaches', () => {
  it('places strategy and switch changes in their environment, about their flag', () => {
    expect(
      reachOf({ type: 'feature-strategy-add', project: 'web', environment: 'production', featureName: 'checkout' }),
    ).toEqual({
      places: { kind: 'environment', project: 'web', environment: 'production' },
      changesAnswers: true,
      flag: 'checkout',
    });
    expect(reachOf({ type: 'feature-metadata-updated', project: 'web', featureName: 'checkout' }).places).toEqual({
      kind: 'none',
    });
  });

  it("reaches every environment of a flag's project for what SDKs are given of the flag itself", () => {
    for (const type of [
      'feature-revived',
      'feature-updated',
      'feature-stale-on',
      'feature-stale-off',
      'feature-archived',
      'feature-variants-updated',
    ] as const) {
      expect(reachOf({ type, project: 'web', featureName: 'checkout' }), type).toEqual({
        places: { kind: 'projects', projects: ['web'] },
        changesAnswers: true,
        flag: 'checkout',
      });
    }
    expect(
      reachOf({
        type: 'feature-project-change',
        project: 'b',
        featureName: 'f',
        data: { oldProject: 'a', newProject: 'b' },
      }).places,
    ).toEqual({ kind: 'projects', projects: ['b', 'a'] });
    // Created off, or tagged: served, but answering as before.
    expect(reachOf({ type: 'feature-created', project: 'web', featureName: 'new' })).toMatchObject({
      changesAnswers: false,
      flag: 'new',
    });
    expect(reachOf({ type: 'feature-tagged', project: 'web', featureName: 'new' }).changesAnswers).toBe(false);
  });

  it('reaches wherever a segment is used, and an environment everywhere only when it is switched', () => {
    expect(reachOf({ type: 'segment-updated', data: { id: 7 } })).toEqual({
      places: { kind: 'segment', segmentId: 7 },
      changesAnswers: true,
      flag: null,
    });
    expect(reachOf({ type: 'segment-created', data: { id: 8 } }).changesAnswers).toBe(false);
    expect(
      reachOf({
        type: 'environment-updated',
        environment: 'production',
        data: { enabled: false },
        preData: { enabled: true },
      }).places,
    ).toEqual({ kind: 'environment-everywhere', environment: 'production' });
    expect(
      reachOf({
        type: 'environment-updated',
        environment: 'production',
        data: { enabled: true, sortOrder: 3 },
        preData: { enabled: true, sortOrder: 1 },
      }).places,
    ).toEqual({ kind: 'none' });
  });

  it('reaches nothing for access, people, tokens and settings', () => {
    const none = EVENT_TYPES.filter(
      (type) =>
        reachOf({ type, project: 'web', environment: 'production', featureName: 'f', data: { id: 1 } }).places.kind ===
        'none',
    );
    for (const type of [
      'project-access-added',
      'project-user-added',
      'project-group-role-changed',
      'project-created',
      'project-updated',
      'user-created',
      'group-user-added',
      'api-token-created',
      'pat-created',
      'setting-updated',
      'feature-favorited',
      'feature-completed',
      'feature-potentially-stale-on',
      'change-request-created',
      'context-field-created',
    ] as const) {
      expect(none, type).toContain(type);
    }
    expect(changesAnswers([{ type: 'project-access-added', project: 'web' }, { type: 'user-updated' }])).toBe(false);
    expect(
      changesAnswers([
        { type: 'user-updated' },
        { type: 'feature-environment-enabled', project: 'web', environment: 'production', featureName: 'f' },
      ]),
    ).toBe(true);
  });
});
