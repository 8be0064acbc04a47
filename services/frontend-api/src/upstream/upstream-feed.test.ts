import { describe, expect, it } from 'vitest';
import { createLogger } from '@bunting/platform';
import { featureSetOf, type FeatureSet } from '../snapshots/feature-set.ts';
import { createFeed, type FeedPosition } from './upstream-feed.ts';
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

  describe('resumed from before a restart', () => {
    const other = { ...steady, name: 'other' };
    const persisted = featureSetOf({ features: [steady, other], segments: [] });

    /** A feed on an upstream with only the delta endpoint, answering `answers` in turn and 304 after them. */
    function resumedFeed(
      answers: { status: number; etag?: string; body?: unknown }[],
      read: () => Promise<FeatureSet | undefined> = async () => persisted,
    ) {
      const asked: (string | undefined)[] = [];
      const sets: { set: FeatureSet; changed: readonly string[] | undefined }[] = [];
      const positions: FeedPosition[] = [];
      let reads = 0;
      const upstream = fakeUpstream(() => undefined);
      upstream.request = async (_method, path, options) => {
        if (path !== 'api/client/delta') return { status: 404, headers: new Headers(), text: '{}' };
        asked.push(options?.headers?.['if-none-match']);
        const answer = answers.shift() ?? { status: 304 };
        return {
          status: answer.status,
          headers: new Headers(answer.etag ? { etag: answer.etag } : {}),
          text: JSON.stringify(answer.body ?? {}),
        };
      };
      const feed = createFeed({
        upstream,
        token: 'default:development.feed-test',
        log: createLogger('silent', 'feed-test'),
        config: { pollMs: 1, probeMs: 60_000 },
        onSet: (set, changed) => void sets.push({ set, changed }),
        onRefused: () => undefined,
        resume: {
          position: { deltaEtag: '"r5"' },
          read: () => {
            reads += 1;
            return read();
          },
        },
        onPosition: (position) => void positions.push(position),
      });
      return { feed, asked, sets, positions, reads: () => reads };
    }
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setImmediate(resolve));
    };

    it('asks from where it was and, told nothing changed, hands on the flags it kept whole', async () => {
      const { feed, asked, sets, positions, reads } = resumedFeed([]);
      await feed.loaded;
      feed.stop();
      expect(asked[0]).toBe('"r5"');
      expect(sets).toEqual([{ set: persisted, changed: undefined }]);
      expect(reads()).toBe(1);
      // Saved already: not written again.
      expect(positions).toEqual([]);
    });

    it('applies the changes since to the flags it kept, hands them on whole and notes where it is now', async () => {
      const changed = { ...other, enabled: false };
      const { feed, sets, positions } = resumedFeed([
        { status: 200, etag: '"r6"', body: { events: [{ type: 'feature-updated', eventId: 6, feature: changed }] } },
      ]);
      await until(() => positions.length > 0);
      feed.stop();
      expect(sets).toHaveLength(1);
      // Whole: what is served until then came from another file, so every flag is compared.
      expect(sets[0]!.changed).toBeUndefined();
      expect(sets[0]!.set.features.get('other')?.enabled).toBe(false);
      expect(sets[0]!.set.features.get('steady')).toBe(persisted.features.get('steady'));
      expect(positions).toEqual([{ deltaEtag: '"r6"' }]);
    });

    it('does not read the kept flags when the upstream sends everything', async () => {
      const { feed, sets, reads } = resumedFeed([
        {
          status: 200,
          etag: '"r9"',
          body: { events: [{ type: 'hydration', eventId: 9, features: [steady], segments: [] }] },
        },
      ]);
      await feed.loaded;
      feed.stop();
      expect(reads()).toBe(0);
      expect([...sets[0]!.set.features.keys()]).toEqual(['steady']);
    });

    it('asks for everything when the kept flags cannot be read', async () => {
      const { feed, asked, sets } = resumedFeed(
        [
          { status: 200, etag: '"r6"', body: { events: [{ type: 'feature-updated', eventId: 6, feature: other }] } },
          {
            status: 200,
            etag: '"r9"',
            body: { events: [{ type: 'hydration', eventId: 9, features: [steady], segments: [] }] },
          },
        ],
        async () => undefined,
      );
      await feed.loaded;
      feed.stop();
      expect(asked.slice(0, 2)).toEqual(['"r5"', undefined]);
      expect([...sets[0]!.set.features.keys()]).toEqual(['steady']);
    });
  });
});
