import { randomBytes } from 'node:crypto';
import type { Redis } from '@bunting/platform';

const SESSION_TTL_SECONDS = 48 * 3600;

export type SessionRecord = { userId: number; source: string; createdAt: string; idToken?: string };

/**
 * Sessions live in Redis, so logging out (or deleting the user) ends them everywhere at once. Each user's sessions
 * are also listed, so a password change or reset can end all of them but the one that made it.
 */
export function createSessionStore(redis: Redis, namespace: string) {
  const key = (id: string) => `${namespace}:session:${id}`;
  const userKey = (userId: number) => `${namespace}:user-sessions:${userId}`;

  async function describe(id: string): Promise<SessionRecord | null> {
    if (id.length > 100) return null;
    const raw = await redis.get(key(id));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<SessionRecord>;
    if (typeof parsed.userId !== 'number' || typeof parsed.source !== 'string') return null;
    return {
      userId: parsed.userId,
      source: parsed.source,
      createdAt: String(parsed.createdAt ?? ''),
      ...(typeof parsed.idToken === 'string' ? { idToken: parsed.idToken } : {}),
    };
  }

  return {
    ttlSeconds: SESSION_TTL_SECONDS,
    /** `idToken`: what an OpenID provider issued at login, kept to end the provider's session at logout. */
    async create(userId: number, source: string, idToken?: string): Promise<string> {
      const id = randomBytes(32).toString('base64url');
      const record: SessionRecord = {
        userId,
        source,
        createdAt: new Date().toISOString(),
        ...(idToken ? { idToken } : {}),
      };
      await redis
        .multi()
        .set(key(id), JSON.stringify(record), 'EX', SESSION_TTL_SECONDS)
        .sadd(userKey(userId), id)
        .expire(userKey(userId), SESSION_TTL_SECONDS)
        .exec();
      return id;
    },
    describe,
    async userOf(id: string): Promise<number | null> {
      return (await describe(id))?.userId ?? null;
    },
    async end(id: string): Promise<void> {
      const record = await describe(id);
      const ending = redis.multi().del(key(id));
      if (record) ending.srem(userKey(record.userId), id);
      await ending.exec();
    },
    /**
     * The most sessions any one user has (Unleash's ui-config says it): each user's session set counted, a page of
     * keys at a time. Callers keep the answer a while; it walks every user who has signed in within the sessions' life.
     */
    async mostSessionsOfOneUser(): Promise<number> {
      let most = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}:user-sessions:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length === 0) continue;
        const counts = await redis.multi(keys.map((one) => ['scard', one])).exec();
        for (const [, count] of counts ?? []) most = Math.max(most, Number(count ?? 0));
      } while (cursor !== '0');
      return most;
    },
    /** Ends every session of a user (after a password change, a reset or deletion), but `except` if given. */
    async endAllOf(userId: number, except?: string | null): Promise<void> {
      const ids = (await redis.smembers(userKey(userId))).filter((id) => id !== except);
      if (ids.length === 0) return;
      await redis
        .multi()
        .del(...ids.map(key))
        .srem(userKey(userId), ...ids)
        .exec();
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
