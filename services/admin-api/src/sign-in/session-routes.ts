import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Redirect } from '@bunting/contracts';
import { credentialOf, type HttpServer } from '@bunting/platform';
import { clearedSessionCookie } from '../sessions/session-cookie.ts';
import type { LoginDeps } from './login-deps.ts';
import { signInMethodOf } from './sign-in-methods.ts';

const LoggedOut = z.object({ message: z.string(), redirectUrl: z.string().optional() });
const LogoutQuery = z.object({ everywhere: z.enum(['true', 'false']).optional() });

/**
 * Logout is a POST, so no link or image elsewhere can sign anyone out (Unleash's own UI posts it too). A session
 * whose method signs out at its provider too (OpenID Connect with single sign-out on) sends a browser's form post
 * there, and tells a script the address in redirectUrl.
 */
export function sessionRoutes(app: HttpServer, { db, sessions, config }: LoginDeps) {
  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const { session } = credentialOf(request);
    const record = session ? await sessions.describe(session) : null;
    // `?everywhere=true` (the console's "sign out everywhere") ends every session of the user, on any device.
    const everywhere = (request.query as z.infer<typeof LogoutQuery>).everywhere === 'true';
    if (record && everywhere) await sessions.endAllOf(record.userId);
    else if (session) await sessions.end(session);
    reply.header('set-cookie', clearedSessionCookie(request, config.baseUrl));
    const redirectUrl = record ? await signInMethodOf(record.source)?.signOutUrl?.(db, record) : undefined;
    const browser = String(request.headers.accept ?? '').includes('text/html');
    if (browser) return reply.redirect(redirectUrl ?? '/login', 302);
    return reply.code(200).send({ message: 'Logged out', ...(redirectUrl ? { redirectUrl } : {}) });
  };
  const loggedOut = (summary: string) => ({
    schema: { summary, querystring: LogoutQuery, response: { 200: LoggedOut, 302: Redirect } },
  });
  app.post(
    '/auth/logout',
    loggedOut('Sign out (ends the session; with everywhere=true, every session of the user)'),
    logout,
  );
  app.post('/logout', loggedOut('Sign out (older address)'), logout);
}
