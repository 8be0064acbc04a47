import * as client from 'openid-client';
import { DomainError, NotFoundError, type Queryable } from '@bunting/platform';
import { loadOidcSettings, type OidcSettings } from './oidc-settings.ts';

/** A value at a dotted path in the token's claims ("groups", "realm_access.roles"), as a list of strings. */
export function claimValues(claims: Record<string, unknown>, path: string): string[] {
  let value: unknown = claims;
  for (const part of path.split('.').filter(Boolean)) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function emailAllowed(email: string, domains: string | undefined): boolean {
  const allowed = (domains ?? '').split(',').map((domain) => domain.trim().toLowerCase()).filter(Boolean);
  if (allowed.length === 0) return true;
  return allowed.includes(email.split('@').pop()!.toLowerCase());
}

export async function providerConfiguration(settings: OidcSettings) {
  if (!settings.enabled || !settings.discoverUrl || !settings.clientId) throw new NotFoundError('OpenID Connect login is not enabled.');
  const discoverUrl = new URL(settings.discoverUrl);
  try {
    return await client.discovery(discoverUrl, settings.clientId, {
      client_secret: settings.secret,
      id_token_signed_response_alg: settings.idTokenSigningAlgorithm ?? 'RS256',
    }, undefined, discoverUrl.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined);
  } catch (error) {
    throw new DomainError(503, 'ServiceUnavailableError', `The OpenID provider cannot be reached: ${(error as Error).message}`);
  }
}

/**
 * Single sign-out: where to send a user logging out of a session started through OpenID Connect, so the
 * provider ends its session too. Undefined when the setting is off, the provider has no end-session endpoint or
 * cannot be reached: the local logout has happened either way.
 */
export async function singleSignOutUrl(db: Queryable, idToken: string): Promise<string | undefined> {
  const settings = await loadOidcSettings(db);
  if (!settings.enabled || !settings.enableSingleSignOut) return undefined;
  try {
    const configuration = await providerConfiguration(settings);
    return client.buildEndSessionUrl(configuration, { id_token_hint: idToken, client_id: settings.clientId! }).href;
  } catch {
    return undefined;
  }
}
