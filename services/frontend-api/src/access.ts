import type { FastifyRequest } from 'fastify';
import type { SdkToken } from '@bunting/contracts';
import { AuthenticationRequired, DomainError } from '@bunting/platform';
import type { SdkTokens } from './tokens/sdk-tokens.ts';

/** A token the SDK edge accepts, resolved to the environment it evaluates in and the projects it sees. */
export type EdgeAccess = { tokenName: string; environment: string; projects: string[] };

/** The token in Authorization (bare or as a bearer token) or, as OpenFeature providers may send it, in X-API-Key. */
export function secretOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization ?? request.headers['x-api-key'];
  if (typeof header !== 'string') return null;
  const secret = header.trim().replace(/^bearer\s+/i, '');
  return secret === '' ? null : secret;
}

export type TokenKind = 'frontend' | 'client';

function accessOf(token: SdkToken | null, kinds: TokenKind | readonly TokenKind[]): EdgeAccess & { kind: TokenKind } {
  if (token === null) throw new AuthenticationRequired();
  const allowed = typeof kinds === 'string' ? token.type === kinds : (kinds as readonly string[]).includes(token.type);
  if (!allowed)
    throw new DomainError(403, 'NoAccessError', 'invalid token: expected a different token type for this endpoint');
  return {
    tokenName: token.name,
    environment: token.environment,
    projects: token.projects,
    kind: token.type as TokenKind,
  };
}

/**
 * Frontend routes take frontend tokens, client routes client tokens, as Unleash: any other token, admin ones
 * included, is refused with 403. Checked against the replica's own copy of the tokens, without waiting; only a
 * secret the copy does not know is asked about (it may be a token made a moment ago).
 */
export function edgeAccess(
  tokens: Pick<SdkTokens, 'find' | 'lookup'>,
  request: FastifyRequest,
  kind: TokenKind | readonly TokenKind[],
): (EdgeAccess & { kind: TokenKind }) | Promise<EdgeAccess & { kind: TokenKind }> {
  const secret = secretOf(request);
  if (!secret) throw new AuthenticationRequired();
  const token = tokens.find(secret);
  if (token === undefined) {
    throw new DomainError(
      503,
      'ServiceUnavailableError',
      'This replica has not received the API tokens yet; try again shortly.',
      { headers: { 'retry-after': '2' } },
    );
  }
  if (token !== null) return accessOf(token, kind);
  return tokens.lookup(secret).then((found) => accessOf(found, kind));
}

/**
 * Whether the secret a stream was opened with still belongs to a token (a revoked one ends the stream). Streams read
 * their secret once, when they open: this is asked of 10,000 streams at every change.
 */
export function stillValid(tokens: Pick<SdkTokens, 'find'>, secret: string | null): boolean {
  return secret !== null && !!tokens.find(secret);
}
