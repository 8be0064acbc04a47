import { RateLimitError, type Redis } from '@bunting/platform';

const WINDOW_SECONDS = 15 * 60;
const MAX_FAILURES_PER_LOGIN = 5;
const MAX_FAILURES_PER_ADDRESS = 30;

/**
 * Brute-force protection for password login, kept in Redis so it holds across replicas: after 5 failures for
 * one username (or 30 from one address) within 15 minutes, further attempts are refused before any password check.
 */
export function createLoginGuard(redis: Redis, namespace: string) {
  const keys = (login: string, address: string) => [
    `${namespace}:login-failures:user:${login.toLowerCase()}`,
    `${namespace}:login-failures:ip:${address}`,
  ] as const;
  return {
    async check(login: string, address: string) {
      const [userKey, addressKey] = keys(login, address);
      const [byUser, byAddress] = await redis.mget(userKey, addressKey);
      if (Number(byUser ?? 0) >= MAX_FAILURES_PER_LOGIN || Number(byAddress ?? 0) >= MAX_FAILURES_PER_ADDRESS) {
        const ttl = Math.max(await redis.ttl(userKey), await redis.ttl(addressKey), 1);
        throw new RateLimitError('Too many failed login attempts; try again later.', ttl);
      }
    },
    async failed(login: string, address: string) {
      const pipeline = redis.multi();
      for (const key of keys(login, address)) pipeline.incr(key).expire(key, WINDOW_SECONDS);
      await pipeline.exec();
    },
    async succeeded(login: string, address: string) {
      await redis.del(keys(login, address)[0]);
    },
  };
}
export type LoginGuard = ReturnType<typeof createLoginGuard>;
