import type { FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { z } from 'zod';
import { OidcSettingsInput, SYSTEM_ACTOR } from '@bunting/contracts';
import { AuthenticationRequired, DomainError, NoAccessError, NotFoundError, Permission, ValidationError, type HttpServer, type Queryable } from '@bunting/platform';
import { actorFor, allow } from '../access/guard.ts';
import { sessionCookie } from '../access/sessions.ts';
import { groupService } from '../groups/group-service.ts';
import { requireRootRole } from '../roles/role-store.ts';
import { userService } from '../users/user-service.ts';
import { userStore } from '../users/user-store.ts';
import type { LoginDeps } from './login-routes.ts';
import { loadOidcSettings, publicOidcSettings, saveOidcSettings, type OidcSettings } from './oidc-settings.ts';

const PendingLogin = z.object({ nonce: z.string(), codeVerifier: z.string(), redirectUri: z.string() });

/** A value at a dotted path in the token's claims ("groups", "realm_access.roles"), as a list of strings. */
export function claimValues(claims: Record<string, unknown>, path: string): string[] {
  let value: unknown = claims;
  for (const part of path.split('.').filter(Boolean)) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

function emailAllowed(email: string, domains: string | undefined): boolean {
  const allowed = (domains ?? '').split(',').map((domain) => domain.trim().toLowerCase()).filter(Boolean);
  if (allowed.length === 0) return true;
  return allowed.includes(email.split('@').pop()!.toLowerCase());
}

async function providerConfiguration(settings: OidcSettings) {
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

export function oidcRoutes(app: HttpServer, deps: LoginDeps) {
  const { db, changes, redis, sessions, config } = deps;
  const pendingKey = (state: string) => `${deps.namespace}:oidc-login:${state}`;

  const redirectUri = (request: FastifyRequest) =>
    `${config.baseUrlConfigured ? config.baseUrl.replace(/\/$/, '') : `${request.protocol}://${request.host}`}/auth/oidc/callback`;

  // Seed endpoint 12.
  app.get('/api/admin/auth/oidc/settings', async (request) => {
    allow(request, Permission.ADMIN);
    return publicOidcSettings(await loadOidcSettings(db));
  });

  app.post('/api/admin/auth/oidc/settings', { schema: { body: OidcSettingsInput } }, async (request) => {
    const actor = actorFor(request, Permission.ADMIN);
    if (request.body.enabled && (!request.body.discoverUrl || !request.body.clientId)) {
      throw ValidationError.field(request.body.discoverUrl ? 'clientId' : 'discoverUrl', 'is required to enable OpenID Connect');
    }
    if (request.body.defaultRootRoleId !== undefined) await requireRootRole(db, request.body.defaultRootRoleId, 'defaultRootRoleId');
    return changes.run(actor, (change) => saveOidcSettings(change, request.body));
  });

  app.get('/auth/oidc/login', async (request, reply) => {
    const settings = await loadOidcSettings(db);
    const configuration = await providerConfiguration(settings);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const callback = redirectUri(request);
    await redis.set(pendingKey(state), JSON.stringify({ nonce, codeVerifier, redirectUri: callback }), 'EX', 600);
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: callback,
      scope: `openid email profile${settings.addGroupsScope ? ' groups' : ''}`,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      ...(settings.acrValues ? { acr_values: settings.acrValues } : {}),
    });
    return reply.redirect(url.href, 302);
  });

  app.get('/auth/oidc/callback', async (request, reply) => {
    const settings = await loadOidcSettings(db);
    const configuration = await providerConfiguration(settings);
    const query = request.query as Record<string, string | undefined>;
    if (!query.state) throw ValidationError.field('state', 'is missing');
    const stored = await redis.getdel(pendingKey(query.state));
    if (!stored) throw new AuthenticationRequired('This login has expired or was already used; start again.');
    const pending = PendingLogin.parse(JSON.parse(stored));
    const current = new URL(pending.redirectUri);
    current.search = new URL(request.url, 'http://callback').search;
    let claims: Record<string, unknown>;
    let idToken: string | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: query.state,
        expectedNonce: pending.nonce,
      });
      claims = (tokens.claims() ?? {}) as Record<string, unknown>;
      idToken = tokens.id_token;
    } catch (error) {
      throw new AuthenticationRequired(`The OpenID provider did not confirm the login: ${(error as Error).message}`);
    }
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    if (!email) throw new AuthenticationRequired('The OpenID provider sent no email for this user.');

    const userId = await changes.run(SYSTEM_ACTOR, async (change) => {
      let user = await userStore.findByEmail(change.tx, email);
      if (!user) {
        if (!settings.autoCreate || !emailAllowed(email, settings.emailDomains)) {
          throw new NoAccessError('AUTO_CREATE_USER');
        }
        const rootRole = settings.defaultRootRoleId ?? settings.defaultRootRole ?? 'Viewer';
        user = await userService.create(change, {
          email,
          name: typeof claims.name === 'string' ? claims.name : undefined,
          rootRole,
        });
      }
      if (settings.enableGroupSyncing && settings.groupJsonPath) {
        await groupService.syncFromClaims(change, user.id, claimValues(claims, settings.groupJsonPath));
      }
      return user.id;
    });
    await userStore.recordLogin(db, userId);
    const session = await sessions.create(userId, 'oidc', settings.enableSingleSignOut ? idToken : undefined);
    return reply.header('set-cookie', sessionCookie(session, sessions.ttlSeconds)).redirect('/', 302);
  });
}
