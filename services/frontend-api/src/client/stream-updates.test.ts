import { describe, expect, it } from 'vitest';
import type { EnvironmentSnapshot } from '@bunting/contracts';
import { compileEnvironment } from '../snapshots/compiled-environment.ts';
import type { ChangesSince } from '../snapshots/revision-changes.ts';
import type { ClientQuery } from './client-payload.ts';
import { createStreamUpdates } from './stream-updates.ts';

const flag = (name: string, enabled: boolean, project = 'default') => ({ name, enabled, project, strategies: [] });
const compiled = (revision: number, features: EnvironmentSnapshot['features']) =>
  compileEnvironment({ environment: 'development', features, segments: [] }, revision, 'test');
const everything: ClientQuery = { projects: ['*'], inlineSegments: false };
const webOnly: ClientQuery = { projects: ['web'], inlineSegments: false };

describe('stream updates', () => {
  it('encodes a revision once for every stream that held the same revision with the same query', () => {
    const asked: number[] = [];
    const updates = createStreamUpdates((_environment, revision): ChangesSince => {
      asked.push(revision);
      return { features: new Map([['checkout', 'default']]), segments: new Set() };
    });
    const next = compiled(7, [flag('checkout', true), flag('other', false)]);
    const first = updates.messageFor(next, everything, 6)?.toString();
    expect(updates.messageFor(next, everything, 6)?.toString()).toBe(first);
    expect(asked).toEqual([6]);
    expect(first).toMatch(/^event: unleash-updated\nid: 7\ndata: /);
    expect(JSON.parse(first!.split('data: ')[1]!).events).toEqual([
      expect.objectContaining({
        type: 'feature-updated',
        eventId: 7,
        feature: expect.objectContaining({ name: 'checkout', enabled: true }),
      }),
    ]);
    // A stream that held an older revision, or asked for other flags, gets its own message.
    updates.messageFor(next, everything, 5);
    updates.messageFor(next, webOnly, 6);
    expect(asked).toEqual([6, 5, 6]);
  });

  it('says nothing when nothing changed between the revisions, and forgets older revisions', () => {
    let changed = new Map<string, string>();
    const updates = createStreamUpdates(() => ({ features: changed, segments: new Set() }));
    const next = compiled(3, [flag('checkout', true)]);
    expect(updates.messageFor(next, everything, 2)).toBeNull();
    changed = new Map([['checkout', 'default']]);
    const later = compiled(4, [flag('checkout', false)]);
    expect(updates.messageFor(later, everything, 3)?.toString()).toMatch(/^event: unleash-updated\nid: 4\n/);
  });

  it('hydrates every stream opening at a revision with the same bytes, per query, and again after a change', () => {
    const updates = createStreamUpdates(() => null);
    const first = compiled(3, [flag('checkout', true), flag('web-flag', true, 'web')]);
    const hydration = updates.hydrationFor(first, everything);
    expect(updates.hydrationFor(first, everything)).toBe(hydration);
    expect(hydration.toString()).toMatch(/^event: unleash-connected\nid: 3\ndata: /);
    const events = (message: Buffer) => JSON.parse(message.toString().split('data: ')[1]!).events;
    expect(events(hydration)).toEqual([expect.objectContaining({ type: 'hydration', eventId: 3 })]);
    expect(events(hydration)[0].features.map((feature: { name: string }) => feature.name)).toEqual([
      'checkout',
      'web-flag',
    ]);
    // Another token's query sees only its flags.
    expect(
      events(updates.hydrationFor(first, webOnly))[0].features.map((feature: { name: string }) => feature.name),
    ).toEqual(['web-flag']);
    const later = compiled(4, [flag('checkout', false)]);
    const next = updates.hydrationFor(later, everything);
    expect(next).not.toBe(hydration);
    expect(next.toString()).toMatch(/^event: unleash-connected\nid: 4\n/);
  });
});
