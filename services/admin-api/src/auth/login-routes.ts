import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Login, Redirect, User } from '@bunting/contracts';
import { AuthenticationRequired, credentialOf, type HttpServer } from '@bunting/platform';
import { clearedSessionCookie, sessionCookie } from '../sessions/session-cookie.ts';
import { passwordMatches, spendPasswordCheck } from '../users/passwords.ts';
import { userReadModel, userView } from '../users/user-read-model.ts';
import { userService } from '../users/user-service.ts';
import type { LoginDeps } from './login-deps.ts';
import { singleSignOutUrl } from './oidc-provider.ts';
import { loadSimpleAuthSettings } from './simple-auth-settings.ts';

/** Password login (/auth/simple/login) gives a server-side session in the unleash-session cookie. */
export function loginRoutes(app: HttpServer, { db, sessions, loginGuard, config }: LoginDeps) {
  app.post('/auth/simple/login', { schema: { summary: 'Sign in with a username or email and a password', body: Login, response: { 200: User } } }, async (request, reply) => {
    const { username, password } = request.body;
    if ((await loadSimpleAuthSettings(db)).disabled) {
      throw new AuthenticationRequired('Password sign-in is turned off on this installation; sign in with OpenID Connect.');
    }
    const user = await userReadModel.findByLogin(db, username);
    await loginGuard.check(user?.id ?? null, request.ip);
    const valid = user ? await passwordMatches(user.passwordHash, password) : (await spendPasswordCheck(password), false);
    if (!user || !valid) {
      await loginGuard.failed(user?.id ?? null, request.ip);
      if (user) await userService.recordFailedLogin(db, user.id);
      throw new AuthenticationRequired('Wrong password or username.');
    }
    await loginGuard.succeeded(user.id);
    await userService.recordLogin(db, user.id);
    const session = await sessions.create(user.id, 'password');
    const fresh = (await userReadModel.find(db, user.id))!;
    return reply.header('set-cookie', sessionCookie(request, config.baseUrl, session, sessions.ttlSeconds)).code(200).send(userView(fresh));
  });

  /**
   * Logout is a POST, so no link or image elsewhere can sign anyone out (Unleash's own UI posts it too). A session
   * started through OpenID Connect with single sign-out on also ends at the provider: a browser's form post is
   * redirected there, a script is told the address in redirectUrl.
   */
  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const { session } = credentialOf(request);
    const record = session ? await sessions.describe(session) : null;
    // `?everywhere=true` (the console's "sign out everywhere") ends every session of the user, on any device.
    const everywhere = (request.query as z.infer<typeof LogoutQuery>).everywhere === 'true';
    if (record && everywhere) await sessions.endAllOf(record.userId);
    else if (session) await sessions.end(session);
    reply.header('set-cookie', clearedSessionCookie(request, config.baseUrl));
    const redirectUrl = record?.idToken ? await singleSignOutUrl(db, record.idToken) : undefined;
    const browser = String(request.headers.accept ?? '').includes('text/html');
    if (browser) return reply.redirect(redirectUrl ?? '/login', 302);
    return reply.code(200).send({ message: 'Logged out', ...(redirectUrl ? { redirectUrl } : {}) });
  };
  const LoggedOut = z.object({ message: z.string(), redirectUrl: z.string().optional() });
  const LogoutQuery = z.object({ everywhere: z.enum(['true', 'false']).optional() });
  const loggedOut = (summary: string) => ({ schema: { summary, querystring: LogoutQuery, response: { 200: LoggedOut, 302: Redirect } } });
  app.post('/auth/logout', loggedOut('Sign out (ends the session; with everywhere=true, every session of the user)'), logout);
  app.post('/logout', loggedOut('Sign out (older address)'), logout);
}
