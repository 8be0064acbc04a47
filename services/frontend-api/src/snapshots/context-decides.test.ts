import { describe, expect, it } from 'vitest';
import type { ClientFeature, ClientSegment } from '@bunting/contracts';
import { clockEpoch, contextDecides, decidedFor } from './context-decides.ts';

const flag = (strategies: ClientFeature['strategies'], variants?: ClientFeature['variants']) => ({
  source: { name: 'f', enabled: true, strategies, ...(variants ? { variants } : {}) } as ClientFeature,
});
const rollout = (stickiness: string) => ({ name: 'flexibleRollout', parameters: { rollout: '50', stickiness } });

describe('contextDecides', () => {
  it('holds for rollouts by an id, and not for random draws or the clock', () => {
    expect(contextDecides([flag([rollout('default')]), flag([rollout('userId')])], [])).toEqual({
      random: false,
      instants: [],
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
    const before = { contextName: 'currentTime', operator: 'DATE_BEFORE', value: '2029-06-01T00:00:00Z' };
    const unreadable = { contextName: 'currentTime', operator: 'DATE_AFTER', value: 'soon' };
    const segment = { id: 1, name: 's', constraints: [dated] } as ClientSegment;
    expect(
      contextDecides(
        [
          flag([{ name: 'default', constraints: [dated, unreadable] }]),
          flag([{ name: 'default', constraints: [before] }]),
        ],
        [segment],
      ).instants,
    ).toEqual([Date.parse('2029-06-01T00:00:00Z'), Date.parse('2030-01-01T00:00:00Z')]);
  });

  it('needs an id in the context', () => {
    expect(decidedFor({ random: false }, { userId: 'u' })).toBe(true);
    expect(decidedFor({ random: false }, { sessionId: 's' })).toBe(true);
    expect(decidedFor({ random: false }, {})).toBe(false);
    expect(decidedFor({ random: true }, { userId: 'u' })).toBe(false);
  });
});

describe('clockEpoch', () => {
  const june = Date.parse('2029-06-01T00:00:00Z');
  const january = Date.parse('2030-01-01T00:00:00Z');
  const flags = { instants: [june, january] };

  it('changes only when the time passes one of the dates, and at the date itself', () => {
    const epochs = [june - 5, june - 1, june, june + 1, january - 1, january, january + 1].map((now) =>
      clockEpoch(flags, {}, now),
    );
    expect(epochs).toEqual(['0.0', '0.0', '0.1', '1.1', '1.1', '1.2', '2.2']);
  });

  it('is empty without dates, and where the context gives its own time', () => {
    expect(clockEpoch({ instants: [] }, {}, june)).toBe('');
    expect(clockEpoch(flags, { currentTime: '2029-07-01T00:00:00Z' }, june)).toBe('');
    // An empty currentTime is no time of its own: the evaluator reads the clock.
    expect(clockEpoch(flags, { currentTime: '' }, june + 1)).toBe('1.1');
  });
});
