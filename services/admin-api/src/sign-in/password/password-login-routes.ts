import { Login, User } from '@bunting/contracts';
import { AuthenticationRequired, type HttpServer } from '@bunting/platform';
import { sessionCookie } from '../../sessions/session-cookie.ts';
import { passwordMatches, spendPasswordCheck } from '../../users/passwords.ts';
import { userReadModel, userView } from '../../users/user-read-model.ts';
import { userService } from '../../users/user-service.ts';
import type { LoginDeps } from '../login-deps.ts';
import { noteWho } from '../../access-history/access-hook.ts';
import { createLoginGuard } from './login-guard.ts';
import { loadPasswordSettings } from './password-settings.ts';

/** Password login (/auth/simple/login) gives a server-side session in the unleash-session cookie. */
export function passwordLoginRoutes(app: HttpServer, { db, sessions, config, redis, namespace }: LoginDeps) {
  const loginGuard = createLoginGuard(redis, namespace);
  app.post(
    '/auth/simple/login',
    {
      schema: { summary: 'Sign in with a username or email and a password', body: Login, response: { 200: User } },
      config: { access: { method: 'password', action: 'sign-in' } },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      noteWho(request, { name: username });
      if ((await loadPasswordSettings(db)).disabled) {
        throw new AuthenticationRequired('Password sign-in is turned off on this installation; sign in another way.');
      }
      const user = await userReadModel.findByLogin(db, username);
      if (user) noteWho(request, { userId: user.id });
      const who = user ? { userId: user.id } : { typed: username };
      await loginGuard.check(who, request.ip);
      // A deactivated account answers as a wrong password would, so the answer tells nothing more.
      const valid = user
        ? (await passwordMatches(user.passwordHash, password)) && user.active
        : (await spendPasswordCheck(password, config.passwordHashing), false);
      if (!user || !valid) {
        await loginGuard.failed(who, request.ip);
        if (user) await userService.recordFailedLogin(db, user.id);
        throw new AuthenticationRequired('Wrong password or username.');
      }
      await loginGuard.succeeded(user.id);
      await userService.recordLogin(db, user.id);
      const session = await sessions.create(user.id, 'password');
      const fresh = (await userReadModel.find(db, user.id))!;
      return reply
        .header('set-cookie', sessionCookie(request, config.baseUrl, session, sessions.ttlSeconds))
        .code(200)
        .send(userView(fresh));
    },
  );
}
