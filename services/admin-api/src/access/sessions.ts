import { randomBytes } from 'node:crypto';
import type { Redis } from '@bunting/platform';

const SESSION_TTL_SECONDS = 48 * 3600;

/** Sessions live in Redis, so logging out (or deleting the user) ends them everywhere at once. */
export function createSessionStore(redis: Redis, namespace: string) {
  const key = (id: string) => `${namespace}:session:${id}`;
  return {
    ttlSeconds: SESSION_TTL_SECONDS,
    async create(userId: number, source: string): Promise<string> {
      const id = randomBytes(32).toString('base64url');
      await redis.set(key(id), JSON.stringify({ userId, source, createdAt: new Date().toISOString() }), 'EX', SESSION_TTL_SECONDS);
      return id;
    },
    async userOf(id: string): Promise<number | null> {
      if (id.length > 100) return null;
      const raw = await redis.get(key(id));
      if (!raw) return null;
      const parsed = JSON.parse(raw) as { userId?: unknown };
      return typeof parsed.userId === 'number' ? parsed.userId : null;
    },
    async end(id: string): Promise<void> {
      await redis.del(key(id));
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;

export function sessionCookie(id: string, maxAgeSeconds: number): string {
  return `unleash-session=${encodeURIComponent(id)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}
export const CLEARED_SESSION_COOKIE = 'unleash-session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0';
