import * as client from 'openid-client';
import { DomainError, NotFoundError, type Queryable } from '@bunting/platform';
import { loadOidcSettings, type OidcSettings } from './oidc-settings.ts';

export async function providerConfiguration(settings: OidcSettings) {
  if (!settings.enabled || !settings.discoverUrl || !settings.clientId)
    throw new NotFoundError('OpenID Connect login is not enabled.');
  const discoverUrl = new URL(settings.discoverUrl);
  try {
    return await client.discovery(
      discoverUrl,
      settings.clientId,
      {
        client_secret: settings.secret,
        id_token_signed_response_alg: settings.idTokenSigningAlgorithm ?? 'RS256',
      },
      undefined,
      discoverUrl.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
    );
  } catch (error) {
    throw new DomainError(
      503,
      'ServiceUnavailableError',
      `The OpenID provider cannot be reached: ${(error as Error).message}`,
    );
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
