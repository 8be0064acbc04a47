import { RateLimitError, type Redis } from '@bunting/platform';

const WINDOW_SECONDS = 15 * 60;
const MAX_FAILURES_PER_USER = 5;
const MAX_FAILURES_PER_ADDRESS = 30;

/**
 * Brute-force protection for password login, kept in Redis so it holds across replicas: after 5 failures for one
 * user (whichever of their names or emails was typed) or 30 from one address within 15 minutes, further attempts are
 * refused before any password check. A login naming no user counts against its address only.
 */
export function createLoginGuard(redis: Redis, namespace: string) {
  const keys = (userId: number | null, address: string) => [
    ...(userId === null ? [] : [`${namespace}:login-failures:user:${userId}`]),
    `${namespace}:login-failures:ip:${address}`,
  ];
  const limits = (userId: number | null) => [...(userId === null ? [] : [MAX_FAILURES_PER_USER]), MAX_FAILURES_PER_ADDRESS];
  return {
    async check(userId: number | null, address: string) {
      const watched = keys(userId, address);
      const counts = await redis.mget(...watched);
      const limit = limits(userId);
      if (counts.some((count, index) => Number(count ?? 0) >= limit[index]!)) {
        const ttl = Math.max(...(await Promise.all(watched.map((key) => redis.ttl(key)))), 1);
        throw new RateLimitError('Too many failed login attempts; try again later.', ttl);
      }
    },
    async failed(userId: number | null, address: string) {
      const pipeline = redis.multi();
      for (const key of keys(userId, address)) pipeline.incr(key).expire(key, WINDOW_SECONDS);
      await pipeline.exec();
    },
    async succeeded(userId: number) {
      await redis.del(`${namespace}:login-failures:user:${userId}`);
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
