import { z } from 'zod';
import { AgentScope } from '@bunting/contracts';
import type { Redis } from '@bunting/platform';

/**
 * What the OAuth flow keeps between its steps, in Redis so any replica answers any step: registered clients (a day
 * until one of them gets a token, then 90 days after their last use), authorization requests waiting for a person's
 * consent (10 minutes) and issued codes (one minute, and used once).
 */
export const OAuthClient = z.object({
  clientId: z.string(),
  clientName: z.string(),
  redirectUris: z.array(z.string()),
  issuedAt: z.number(),
});
export type OAuthClient = z.infer<typeof OAuthClient>;

export const PendingAuthorization = z.object({
  clientId: z.string(),
  clientName: z.string(),
  redirectUri: z.string(),
  state: z.string().nullable(),
  codeChallenge: z.string(),
  scopes: z.array(AgentScope),
  resource: z.string(),
});
export type PendingAuthorization = z.infer<typeof PendingAuthorization>;

export const IssuedCode = PendingAuthorization.omit({ state: true }).extend({
  userId: z.number(),
  username: z.string(),
});
export type IssuedCode = z.infer<typeof IssuedCode>;

const UNUSED_CLIENT_SECONDS = 86_400;
const CLIENT_SECONDS = 90 * 86_400;
const REQUEST_SECONDS = 600;
const CODE_SECONDS = 60;
const REGISTRATION_WINDOW_SECONDS = 600;

/** `registrationsPerWindow`: how many clients one address may register in 10 minutes (one per server it is pointed at). */
export function oauthGrants(redis: Redis, namespace: string, registrationsPerWindow = 10) {
  const key = (kind: string, id: string) => `${namespace}:oauth:${kind}:${id}`;
  const read = async <S extends z.ZodType>(schema: S, raw: string | null): Promise<z.infer<S> | null> => {
    if (raw === null) return null;
    try {
      const parsed = schema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  };
  return {
    /** Whether an address may register one more client now (counted per window). */
    async mayRegister(address: string): Promise<boolean> {
      const counter = key('registrations', address);
      const count = await redis.incr(counter);
      if (count === 1) await redis.expire(counter, REGISTRATION_WINDOW_SECONDS);
      return count <= registrationsPerWindow;
    },
    saveClient: (client: OAuthClient) =>
      redis.set(key('client', client.clientId), JSON.stringify(client), 'EX', UNUSED_CLIENT_SECONDS),
    client: async (clientId: string) => read(OAuthClient, await redis.get(key('client', clientId))),
    /** A client that got a token is kept for 90 days from then. */
    keepClient: (clientId: string) => redis.expire(key('client', clientId), CLIENT_SECONDS),
    savePending: (id: string, pending: PendingAuthorization) =>
      redis.set(key('request', id), JSON.stringify(pending), 'EX', REQUEST_SECONDS),
    pending: async (id: string) => read(PendingAuthorization, await redis.get(key('request', id))),
    takePending: async (id: string) => read(PendingAuthorization, await redis.getdel(key('request', id))),
    saveCode: (code: string, issued: IssuedCode) =>
      redis.set(key('code', code), JSON.stringify(issued), 'EX', CODE_SECONDS),
    takeCode: async (code: string) => read(IssuedCode, await redis.getdel(key('code', code))),
  };
}
