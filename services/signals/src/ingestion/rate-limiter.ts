import type { Redis } from '@bunting/platform';

const SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if count > tonumber(ARGV[2]) then return redis.call('PTTL', KEYS[1]) end
return -1`;

/**
 * At most `perSecond` requests per key in each one-second window, counted in Redis so the limit holds
 * across every replica. Returns how many milliseconds to wait, or null when the request may go ahead.
 */
export function createRateLimiter(redis: Redis, namespace: string, perSecond: number) {
  return {
    async take(key: string): Promise<number | null> {
      const wait = Number(await redis.eval(SCRIPT, 1, `${namespace}:signal-rate:${key}`, 1000, perSecond));
      return wait < 0 ? null : Math.max(wait, 1);
    },
  };
}
