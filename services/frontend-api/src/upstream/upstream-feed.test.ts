import { describe, expect, it } from 'vitest';
import { createLogger } from '@bunting/platform';
import { createFeed } from './upstream-feed.ts';
import type { Upstream, UpstreamAnswer } from './upstream-http.ts';

const features = JSON.stringify({
  version: 2,
  features: [
    {
      name: 'steady',
      project: 'default',
      enabled: true,
      type: 'release',
      strategies: [{ name: 'default', constraints: [], parameters: {} }],
      variants: [],
    },
  ],
  segments: [],
});

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
      onSet: () => (taken += 1),
      onRefused: () => undefined,
    });
    await polledFiveTimes;
    feed.stop();
    expect(feed.mode()).toBe('polling');
    expect([...(feed.set()?.features.keys() ?? [])]).toEqual(['steady']);
    expect(taken).toBe(1);
  });
});
