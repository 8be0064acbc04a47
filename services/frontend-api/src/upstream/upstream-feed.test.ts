import { describe, expect, it } from 'vitest';
import { createLogger } from '@bunting/platform';
import type { FeatureSet } from '../snapshots/feature-set.ts';
import { createFeed } from './upstream-feed.ts';
import type { Upstream, UpstreamAnswer } from './upstream-http.ts';

const steady = {
  name: 'steady',
  project: 'default',
  enabled: true,
  type: 'release',
  strategies: [{ name: 'default', constraints: [], parameters: {} }],
  variants: [],
};
const features = JSON.stringify({ version: 2, features: [steady], segments: [] });

/** An upstream with no stream and no delta endpoint that answers every poll in full, ignoring If-None-Match. */
function fakeUpstream(onPoll: (count: number) => void): Upstream {
  let polls = 0;
  const answer = (status: number, text: string): UpstreamAnswer => ({
    status,
    headers: new Headers({ etag: '"same"' }),
    text,
  });
  return {
    async request(_method, path) {
      if (path !== 'api/client/features') return answer(404, '{}');
      polls += 1;
      onPoll(polls);
      return answer(200, features);
    },
    open: async () => new Response('{}', { status: 404 }),
    readLimited: async (response) => response.text(),
    url: (path) => new URL(path, 'http://upstream.invalid/'),
    lastAnswerAt: () => Date.now(),
    touch: () => undefined,
    unreachable: () => false,
    abandon: () => undefined,
  };
}

describe('the upstream feed', () => {
  it('takes a features answer that is the same as the last one only once', async () => {
    let taken = 0;
    let fifth!: () => void;
    const polledFiveTimes = new Promise<void>((resolve) => (fifth = resolve));
    const feed = createFeed({
      upstream: fakeUpstream((count) => count === 5 && fifth()),
      token: 'default:development.feed-test',
      log: createLogger('silent', 'feed-test'),
      config: { pollMs: 1, probeMs: 60_000 },
      onSet: () => {
        taken += 1;
      },
      onRefused: () => undefined,
    });
    await polledFiveTimes;
    feed.stop();
    expect(feed.mode()).toBe('polling');
    expect([...(feed.set()?.features.keys() ?? [])]).toEqual(['steady']);
    expect(taken).toBe(1);
  });

  it('applies each delta to the set the edge kept, so the flags it left alone stay the objects compiled', async () => {
    const moving = (enabled: boolean) => ({ ...steady, name: 'moving', enabled });
    const answers = [
      { events: [{ type: 'hydration', eventId: 1, features: [steady, moving(true)], segments: [] }] },
      { events: [{ type: 'feature-updated', eventId: 2, feature: moving(false) }] },
    ];
    const upstream = fakeUpstream(() => undefined);
    upstream.request = async (_method, path) =>
      path === 'api/client/delta'
        ? {
            status: answers.length > 0 ? 200 : 304,
            headers: new Headers(),
            text: JSON.stringify(answers.shift() ?? {}),
          }
        : { status: 404, headers: new Headers(), text: '{}' };
    const sets: { set: FeatureSet; changed: readonly string[] | undefined }[] = [];
    let kept: FeatureSet | undefined;
    let delta!: () => void;
    const deltaTaken = new Promise<void>((resolve) => (delta = resolve));
    const feed = createFeed({
      upstream,
      token: 'default:development.feed-test',
      log: createLogger('silent', 'feed-test'),
      config: { pollMs: 1, probeMs: 60_000 },
      onSet: (set, changed) => {
        sets.push({ set, changed });
        if (changed) return delta();
        // As the edge keeps a whole answer: the same flags as objects of its own.
        kept = {
          features: new Map([...set.features].map(([name, flag]) => [name, { ...flag }])),
          segments: set.segments,
        };
        return kept;
      },
      onRefused: () => undefined,
    });
    await deltaTaken;
    feed.stop();
    expect(feed.mode()).toBe('delta');
    expect(sets.map(({ changed }) => changed)).toEqual([undefined, ['moving']]);
    const afterDelta = sets[1]!.set;
    expect(afterDelta.features.get('steady')).toBe(kept!.features.get('steady'));
    expect(afterDelta.features.get('moving')?.enabled).toBe(false);
    expect(kept!.features.get('moving')?.enabled).toBe(true);
  });
});
