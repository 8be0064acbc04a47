import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { z } from 'zod';
import { Redirect, SYSTEM_ACTOR } from '@bunting/contracts';
import { AuthenticationRequired, ValidationError, type HttpServer } from '@bunting/platform';
import type { Change } from '../../events/changes.ts';
import { groupService } from '../../groups/group-service.ts';
import { sessionCookie } from '../../sessions/session-cookie.ts';
import { userReadModel, type UserRow } from '../../users/user-read-model.ts';
import { userService } from '../../users/user-service.ts';
import type { LoginDeps } from '../login-deps.ts';
import { activeUser, claimValues, createOnFirstSignIn } from '../single-sign-on.ts';
import { providerConfiguration } from './oidc-provider.ts';
import { loadOidcSettings, type OidcSettings } from './oidc-settings.ts';
import { noteWho } from '../../access-history/access-hook.ts';

const PendingLogin = z.object({
  nonce: z.string(),
  codeVerifier: z.string(),
  redirectUri: z.string(),
  browser: z.string(),
});
/** Ties a login to the browser that started it: only that browser can complete it. */
const BROWSER_COOKIE = 'bunting-oidc-login';
const LOGIN_SECONDS = 600;

const digest = (value: string) => createHash('sha256').update(value).digest();

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/**
 * Where the provider sends the browser back: the configured public address, else the address this server was reached
 * on (its own socket's, never a header a client could choose).
 */
function redirectUri(request: FastifyRequest, config: LoginDeps['config']): string {
  if (config.baseUrlConfigured) return `${config.baseUrl.replace(/\/$/, '')}/auth/oidc/callback`;
  const { localAddress, localPort } = request.socket;
  const host = localAddress?.includes(':') ? `[${localAddress}]` : localAddress;
  return `http://${host}:${localPort}/auth/oidc/callback`;
}

/**
 * The user an OpenID login signs in as: the one its subject was linked to; else the user with its email, linked now
 * only if the provider says the email is verified; else, with auto-create on and an approved domain, a new user.
 */
async function userFor(change: Change, settings: OidcSettings, claims: Record<string, unknown>): Promise<UserRow> {
  const subject = typeof claims.sub === 'string' ? claims.sub : undefined;
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  if (!subject) throw new AuthenticationRequired('The OpenID provider sent no subject for this user.');
  const linked = await userReadModel.findByOidcSubject(change.tx, subject);
  if (linked) return activeUser(linked);
  if (!email) throw new AuthenticationRequired('The OpenID provider sent no email for this user.');
  const existing = await userReadModel.findByEmail(change.tx, email);
  if (existing) {
    if (claims.email_verified !== true) {
      throw new AuthenticationRequired(
        'The OpenID provider has not verified this email, so it cannot sign in as the user who has it.',
      );
    }
    await userService.linkOidcSubject(change, activeUser(existing).id, subject);
    return existing;
  }
  const created = await createOnFirstSignIn(
    change,
    settings,
    email,
    typeof claims.name === 'string' ? claims.name : undefined,
  );
  await userService.linkOidcSubject(change, created.id, subject);
  return created;
}

/** Signing in through an OpenID Connect provider: /auth/oidc/login sends the browser there, the callback signs in. */
export function oidcRoutes(app: HttpServer, deps: LoginDeps) {
  const { db, changes, redis, sessions, config } = deps;
  const pendingKey = (state: string) => `${deps.namespace}:oidc-login:${state}`;
  const secure = (request: FastifyRequest) =>
    config.baseUrl.startsWith('https:') || request.protocol === 'https' ? '; Secure' : '';
  const browserCookie = (request: FastifyRequest, value: string, maxAge: number) =>
    `${BROWSER_COOKIE}=${value}; Path=/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure(request)}`;

  app.get(
    '/auth/oidc/login',
    {
      schema: {
        summary: 'Start signing in with OpenID Connect: redirects to the provider',
        response: { 302: Redirect },
      },
    },
    async (request, reply) => {
      const settings = await loadOidcSettings(db);
      const configuration = await providerConfiguration(settings);
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      const browser = randomBytes(24).toString('base64url');
      const callback = redirectUri(request, config);
      const pending = { nonce, codeVerifier, redirectUri: callback, browser: digest(browser).toString('hex') };
      await redis.set(pendingKey(state), JSON.stringify(pending), 'EX', LOGIN_SECONDS);
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: callback,
        scope: `openid email profile${settings.addGroupsScope ? ' groups' : ''}`,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...(settings.acrValues ? { acr_values: settings.acrValues } : {}),
      });
      return reply.header('set-cookie', browserCookie(request, browser, LOGIN_SECONDS)).redirect(url.href, 302);
    },
  );

  app.get(
    '/auth/oidc/callback',
    {
      schema: {
        summary: 'Where the OpenID Connect provider returns to: starts the session',
        response: { 302: Redirect },
      },
      config: { access: { method: 'oidc', action: 'sign-in' } },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const settings = await loadOidcSettings(db);
      const configuration = await providerConfiguration(settings);
      const query = request.query as Record<string, string | undefined>;
      if (!query.state) throw ValidationError.field('state', 'is missing');
      const stored = await redis.getdel(pendingKey(query.state));
      if (!stored) throw new AuthenticationRequired('This login has expired or was already used; start again.');
      const pending = PendingLogin.parse(JSON.parse(stored));
      const browser = cookieOf(request, BROWSER_COOKIE);
      if (!browser || !timingSafeEqual(digest(browser), Buffer.from(pending.browser, 'hex'))) {
        throw new AuthenticationRequired('This login was started in another browser; start again here.');
      }
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
        claims = tokens.claims() ?? {};
        idToken = tokens.id_token;
        if (typeof claims.email === 'string') noteWho(request, { name: claims.email });
      } catch (error) {
        throw new AuthenticationRequired(`The OpenID provider did not confirm the login: ${(error as Error).message}`);
      }
      const userId = await changes.run({ system: SYSTEM_ACTOR }, async (change) => {
        const user = await userFor(change, settings, claims);
        if (settings.enableGroupSyncing && settings.groupJsonPath) {
          await groupService.syncFromClaims(change, user.id, claimValues(claims, settings.groupJsonPath), 'oidc');
        }
        return user.id;
      });
      noteWho(request, { userId });
      await userService.recordLogin(db, userId);
      const session = await sessions.create(userId, 'oidc', settings.enableSingleSignOut ? idToken : undefined);
      return reply
        .header('set-cookie', [
          sessionCookie(request, config.baseUrl, session, sessions.ttlSeconds),
          browserCookie(request, '', 0),
        ])
        .redirect('/', 302);
    },
  );
}
