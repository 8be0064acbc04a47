import { randomBytes } from 'node:crypto';
import type { Redis } from '@bunting/platform';

const SESSION_TTL_SECONDS = 48 * 3600;

/** Sessions live in Redis, so logging out (or deleting the user) ends them everywhere at once. */
export function createSessionStore(redis: Redis, namespace: string) {
  const key = (id: string) => `${namespace}:session:${id}`;
  async function describe(id: string): Promise<SessionRecord | null> {
    if (id.length > 100) return null;
    const raw = await redis.get(key(id));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<SessionRecord>;
    if (typeof parsed.userId !== 'number' || typeof parsed.source !== 'string') return null;
    return { userId: parsed.userId, source: parsed.source, createdAt: String(parsed.createdAt ?? ''), ...(typeof parsed.idToken === 'string' ? { idToken: parsed.idToken } : {}) };
  }

  return {
    ttlSeconds: SESSION_TTL_SECONDS,
    /** `idToken`: what an OpenID provider issued at login, kept to end the provider's session at logout. */
    async create(userId: number, source: string, idToken?: string): Promise<string> {
      const id = randomBytes(32).toString('base64url');
      const record: SessionRecord = { userId, source, createdAt: new Date().toISOString(), ...(idToken ? { idToken } : {}) };
      await redis.set(key(id), JSON.stringify(record), 'EX', SESSION_TTL_SECONDS);
      return id;
    },
    describe,
    async userOf(id: string): Promise<number | null> {
      return (await describe(id))?.userId ?? null;
    },
    async end(id: string): Promise<void> {
      await redis.del(key(id));
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
export type SessionRecord = { userId: number; source: string; createdAt: string; idToken?: string };

export function sessionCookie(id: string, maxAgeSeconds: number): string {
  return `unleash-session=${encodeURIComponent(id)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}
export const CLEARED_SESSION_COOKIE = 'unleash-session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0';
