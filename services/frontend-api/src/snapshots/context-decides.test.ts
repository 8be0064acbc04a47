import { describe, expect, it } from 'vitest';
import type { ClientFeature, ClientSegment } from '@bunting/contracts';
import { contextDecides, decidedFor } from './context-decides.ts';

const flag = (strategies: ClientFeature['strategies'], variants?: ClientFeature['variants']) => ({
  source: { name: 'f', enabled: true, strategies, ...(variants ? { variants } : {}) } as ClientFeature,
});
const rollout = (stickiness: string) => ({ name: 'flexibleRollout', parameters: { rollout: '50', stickiness } });

describe('contextDecides', () => {
  it('holds for rollouts by an id, and not for random draws or the clock', () => {
    expect(contextDecides([flag([rollout('default')]), flag([rollout('userId')])], [])).toEqual({
      random: false,
      timed: false,
    });
    expect(contextDecides([flag([rollout('random')])], []).random).toBe(true);
    expect(contextDecides([flag([{ name: 'gradualRolloutRandom', parameters: { percentage: '5' } }])], []).random).toBe(
      true,
    );
    expect(contextDecides([flag([{ name: 'applicationHostname', parameters: { hostNames: 'a' } }])], []).random).toBe(
      true,
    );
    const randomVariant = { name: 'a', weight: 1000, stickiness: 'random' };
    expect(contextDecides([flag([{ name: 'default', variants: [randomVariant] }])], []).random).toBe(true);
    expect(contextDecides([flag([{ name: 'default' }], [randomVariant])], []).random).toBe(true);
    const dated = { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00Z' };
    expect(contextDecides([flag([{ name: 'default', constraints: [dated] }])], []).timed).toBe(true);
    const segment = { id: 1, name: 's', constraints: [dated] } as ClientSegment;
    expect(contextDecides([flag([{ name: 'default' }])], [segment]).timed).toBe(true);
  });

  it('needs an id in the context, and its time where flags read the clock', () => {
    const plain = { random: false, timed: false };
    expect(decidedFor(plain, { userId: 'u' })).toBe(true);
    expect(decidedFor(plain, { sessionId: 's' })).toBe(true);
    expect(decidedFor(plain, {})).toBe(false);
    expect(decidedFor({ random: true, timed: false }, { userId: 'u' })).toBe(false);
    expect(decidedFor({ random: false, timed: true }, { userId: 'u' })).toBe(false);
    expect(decidedFor({ random: false, timed: true }, { userId: 'u', currentTime: '2030-01-02T00:00:00Z' })).toBe(true);
  });
});
