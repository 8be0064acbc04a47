import { CredentialView, type Principal, type VerifyCredentialRequest } from '@bunting/contracts';
import type { FastifyRequest } from 'fastify';
import { AuthenticationRequired, DomainError } from './errors.ts';
import type { Metrics } from './metrics.ts';
import type { Messaging } from './messaging.ts';
import { askView } from './published-views.ts';

/** Turns a request's credential (Authorization header or session cookie) into who is calling. */
export type CredentialVerifier = {
  verify: (request: VerifyCredentialRequest) => Promise<Principal | null>;
  /** The answer already known for a credential, without waiting: undefined when it must be asked for. */
  peek?: (request: VerifyCredentialRequest) => Principal | null | undefined;
  stop: () => void;
};

/** Event types after which a cached answer may be wrong. */
const INVALIDATING_EVENTS = [
  'api-token-deleted',
  'api-token-updated',
  'pat-deleted',
  'user-deleted',
  'user-updated',
  'service-account-deleted',
  'service-account-updated',
  'role-updated',
  'role-deleted',
  'project-access-user-roles-updated',
  'project-access-group-roles-updated',
  'project-access-user-roles-deleted',
  'project-access-group-roles-deleted',
  'project-access-updated',
  'project-access-added',
  'project-user-removed',
  'project-user-role-changed',
  'project-group-role-changed',
  'project-group-removed',
  'group-user-removed',
  'group-user-added',
  'group-updated',
  'group-deleted',
  'project-deleted',
  'project-created',
];

export const SESSION_COOKIE = 'unleash-session';

/**
 * Asks admin-api over NATS request-reply and keeps each answer for at most `ttlMs`, dropping everything
 * as soon as a credential or access event is seen, so a revoked credential stops working within a second.
 */
export function createRemoteVerifier(
  messaging: Messaging,
  options: { ttlMs?: number; metrics?: Metrics } = {},
): CredentialVerifier {
  const ttlMs = options.ttlMs ?? 1000;
  const lookups = options.metrics?.counter(
    'bunting_credential_cache_total',
    'Credential checks answered from the cache (hit) or asked of admin-api (miss)',
    ['result'],
  );
  const cache = new Map<string, { expires: number; answer: Promise<Principal | null>; known?: Principal | null }>();
  const subscriptions = INVALIDATING_EVENTS.map((type) =>
    messaging.nc.subscribe(messaging.names.eventSubject(type), { callback: () => cache.clear() }),
  );

  return {
    verify(request) {
      const key = `${request.authorization ?? ''}\u0000${request.session ?? ''}`;
      const now = Date.now();
      const cached = cache.get(key);
      if (cached && cached.expires > now) {
        lookups?.inc({ result: 'hit' });
        return cached.answer;
      }
      lookups?.inc({ result: 'miss' });
      const answer = askView(messaging, CredentialView, request);
      const entry: { expires: number; answer: Promise<Principal | null>; known?: Principal | null } = {
        expires: now + ttlMs,
        answer,
      };
      cache.set(key, entry);
      answer.then(
        (principal) => {
          entry.known = principal;
        },
        () => undefined,
      );
      answer.catch(() => cache.delete(key));
      if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
      return answer;
    },
    peek(request) {
      const cached = cache.get(`${request.authorization ?? ''}\u0000${request.session ?? ''}`);
      return cached && cached.expires > Date.now() ? cached.known : undefined;
    },
    stop() {
      for (const subscription of subscriptions) subscription.unsubscribe();
      cache.clear();
    },
  };
}

/** The credential parts of a request: the Authorization header (with or without Bearer) and the session cookie. */
export function credentialOf(request: FastifyRequest): VerifyCredentialRequest {
  const header = request.headers.authorization;
  const authorization =
    typeof header === 'string' && header.trim() !== '' ? header.trim().replace(/^bearer\s+/i, '') : null;
  return { authorization, session: sessionCookie(request.headers.cookie) };
}

function sessionCookie(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** Resolves the caller or answers 401; the principal is then on `request.principal`. */
export async function authenticate(verifier: CredentialVerifier, request: FastifyRequest): Promise<Principal> {
  const credential = credentialOf(request);
  if (!credential.authorization && !credential.session) throw new AuthenticationRequired();
  const userAgent = request.headers['user-agent'];
  const principal = await verifier.verify({
    ...credential,
    client: { address: request.ip, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : null },
  });
  if (!principal) throw new AuthenticationRequired();
  if (principal.kind === 'agent') refuseAgentOutsideItsBounds(principal, request);
  const via = viaOf(request);
  request.principal = via === null ? principal : { ...principal, via };
  return request.principal;
}

// Routes that make, show or revoke credentials and sign-ins. An agent never reaches them, whatever its person may.
const CREDENTIAL_ROUTE =
  /\/(tokens?|api-tokens|invite-link|reset-password|agents|scim-settings|oauth|sessions?|password)(\/|$)/;

/**
 * An agent's token (OAuth, for an MCP client) is for its endpoint only (RFC 8707: an audience-bound token), and no
 * credential acting for an agent can mint or list credentials.
 */
function refuseAgentOutsideItsBounds(principal: Principal, request: FastifyRequest): void {
  const route = request.routeOptions.url ?? request.url.split('?')[0]!;
  if (principal.audience !== undefined && route !== principal.audience) {
    throw new DomainError(
      403,
      'NoAccessError',
      `This token was issued to an MCP client for ${principal.audience} only.`,
    );
  }
  if (CREDENTIAL_ROUTE.test(route))
    throw new DomainError(403, 'NoAccessError', 'An agent cannot make, list or revoke credentials.');
}

/** The header an MCP server sets on the API calls it makes for an agent, naming the agent's client. */
export const VIA_HEADER = 'x-bunting-via';

// A label, like a user agent: it names what a change came through and grants nothing.
function viaOf(request: FastifyRequest): string | null {
  const header = request.headers[VIA_HEADER];
  if (typeof header !== 'string') return null;
  const label = header
    // oxlint-disable-next-line no-control-regex -- control characters are what this strips
    .replace(/[\u0000-\u001f]/g, '')
    .trim()
    .slice(0, 200);
  return label === '' ? null : label;
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AuthenticationRequired();
  return request.principal;
}
