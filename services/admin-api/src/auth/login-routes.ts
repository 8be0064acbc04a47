import type { FastifyReply, FastifyRequest } from 'fastify';
import { Login } from '@bunting/contracts';
import { AuthenticationRequired, credentialOf, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { CLEARED_SESSION_COOKIE, sessionCookie, type SessionStore } from '../access/sessions.ts';
import { passwordMatches, spendPasswordCheck } from '../users/passwords.ts';
import { userStore, userView } from '../users/user-store.ts';
import type { LoginGuard } from './login-guard.ts';
import { singleSignOutUrl } from './oidc-routes.ts';
import { loadSimpleAuthSettings } from './simple-auth-settings.ts';

export type LoginDeps = AdminDeps & { sessions: SessionStore; loginGuard: LoginGuard };

/** Password login (/auth/simple/login) gives a server-side session in the unleash-session cookie. */
export function loginRoutes(app: HttpServer, { db, sessions, loginGuard }: LoginDeps) {
  app.post('/auth/simple/login', { schema: { body: Login } }, async (request, reply) => {
    const { username, password } = request.body;
    if ((await loadSimpleAuthSettings(db)).disabled) {
      throw new AuthenticationRequired('Password sign-in is turned off on this installation; sign in with OpenID Connect.');
    }
    await loginGuard.check(username, request.ip);
    const user = await userStore.findByLogin(db, username);
    const valid = user ? await passwordMatches(user.passwordHash, password) : (await spendPasswordCheck(password), false);
    if (!user || !valid) {
      await loginGuard.failed(username, request.ip);
      if (user) await userStore.recordFailedLogin(db, user.id);
      throw new AuthenticationRequired('Wrong password or username.');
    }
    await loginGuard.succeeded(username, request.ip);
    await userStore.recordLogin(db, user.id);
    const session = await sessions.create(user.id, 'password');
    const fresh = (await userStore.get(db, user.id))!;
    return reply.header('set-cookie', sessionCookie(session, sessions.ttlSeconds)).code(200).send(userView(fresh));
  });

  // A session started through OpenID Connect with single sign-out on also ends at the provider: GET (a
  // browser navigating to /logout) is redirected there, POST names the address in redirectUrl.
  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const { session } = credentialOf(request);
    const record = session ? await sessions.describe(session) : null;
    if (session) await sessions.end(session);
    reply.header('set-cookie', CLEARED_SESSION_COOKIE);
    const redirectUrl = record?.idToken ? await singleSignOutUrl(db, record.idToken) : undefined;
    if (redirectUrl && request.method === 'GET') return reply.redirect(redirectUrl, 302);
    return reply.code(200).send({ message: 'Logged out', ...(redirectUrl ? { redirectUrl } : {}) });
  };
  app.post('/auth/logout', logout);
  app.post('/logout', logout);
  app.get('/logout', logout);
}
