import { createHash } from 'node:crypto';
import { RateLimitError, type Redis } from '@bunting/platform';
import { userLockKey } from '../../users/login-lock.ts';

const WINDOW_SECONDS = 15 * 60;
const MAX_FAILURES_PER_USER = 5;
const MAX_FAILURES_PER_ADDRESS = 30;

/**
 * Brute-force protection for password login, kept in Redis so it holds across replicas: after 5 failures for one
 * user (whichever of their names or emails was typed) or 30 from one address within 15 minutes, further attempts are
 * refused before any password check. A login naming no user is counted and locked by the name typed, just the same,
 * so the answers do not tell which names exist.
 */
export function createLoginGuard(redis: Redis, namespace: string) {
  const keys = (who: LoginSubject, address: string) => [
    subjectKey(namespace, who),
    `${namespace}:login-failures:ip:${address}`,
  ];
  const limits = [MAX_FAILURES_PER_USER, MAX_FAILURES_PER_ADDRESS];
  return {
    async check(who: LoginSubject, address: string) {
      const watched = keys(who, address);
      const counts = await redis.mget(...watched);
      const limit = limits;
      if (counts.some((count, index) => Number(count ?? 0) >= limit[index]!)) {
        const ttl = Math.max(...(await Promise.all(watched.map((key) => redis.ttl(key)))), 1);
        throw new RateLimitError('Too many failed login attempts; try again later.', ttl);
      }
    },
    async failed(who: LoginSubject, address: string) {
      const pipeline = redis.multi();
      for (const key of keys(who, address)) pipeline.incr(key).expire(key, WINDOW_SECONDS);
      await pipeline.exec();
    },
    async succeeded(userId: number) {
      await redis.del(userLockKey(namespace, userId));
    },
  };
}

/** Who a login is counted against: the user it names, or the name typed when it names nobody. */
export type LoginSubject = { userId: number } | { typed: string };

// A typed name is kept hashed (bounded, and no one's typo is stored as typed), folded as logins are matched.
const subjectKey = (namespace: string, who: LoginSubject) =>
  'userId' in who
    ? userLockKey(namespace, who.userId)
    : `${namespace}:login-failures:name:${createHash('sha256').update(who.typed.trim().toLowerCase()).digest('base64url')}`;
