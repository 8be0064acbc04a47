import { z } from 'zod';
import {
  ResetPasswordLink,
  ResetTokenOwner,
  NoContent,
  ChangePassword,
  ResetPasswordRequest,
  ResetPasswordEmail,
  SYSTEM_ACTOR,
} from '@bunting/contracts';
import { NotFoundError, Permission, RateLimitError, type HttpServer } from '@bunting/platform';
import { passwordResetMessage } from '../../email/email-messages.ts';
import { userReadModel } from '../../users/user-read-model.ts';
import type { AdminDeps } from '../../app-deps.ts';
import { allow } from '../../access/guard.ts';
import { roleReadModel } from '../../roles/role-read-model.ts';
import { createResetLink, resetPassword, userOfResetToken } from './password-reset.ts';

const Token = z.string().min(1).max(200);

/** Password resets through one-time links. */
export function passwordResetRoutes(
  app: HttpServer,
  {
    db,
    changes,
    config,
    sessions,
    mail,
    redis,
    namespace,
    log,
  }: Pick<AdminDeps, 'db' | 'changes' | 'config' | 'sessions' | 'mail' | 'redis' | 'namespace' | 'log'>,
) {
  app.post(
    '/api/admin/user-admin/reset-password',
    {
      schema: {
        summary: 'Make a password reset link for a user',
        body: ResetPasswordRequest,
        response: { 200: ResetPasswordLink },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) => createResetLink(change, request.body.id, config.baseUrl));
    },
  );

  app.get(
    '/auth/reset/validate',
    {
      schema: {
        summary: 'Check a password reset link and say whose it is',
        querystring: z.object({ token: Token }),
        response: { 200: ResetTokenOwner },
      },
    },
    async (request) => {
      const user = await userOfResetToken(db, request.query.token);
      const role = await roleReadModel.view(db, user.rootRole);
      return {
        id: user.id,
        name: user.name ?? undefined,
        email: user.email ?? user.username ?? '',
        token: request.query.token,
        createdBy: null,
        role,
      };
    },
  );

  app.post(
    '/auth/reset/password',
    {
      schema: {
        summary: 'Set a new password with a reset link',
        body: ChangePassword.extend({ token: Token }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      // Whoever held a session of the user (perhaps why the password is being reset) loses it.
      await changes.run({ system: SYSTEM_ACTOR }, async (change) =>
        sessions.endAllOf(
          await resetPassword(change, request.body.token, request.body.password, config.passwordHashing),
        ),
      );
      return reply.code(200).send();
    },
  );

  /** Makes a reset link for the account with this address and queues its mail, unless one went out this minute. */
  const mailResetLink = async (email: string) => {
    const user = await userReadModel.findByEmail(db, email);
    if (!user || user.isService || !user.email || (await mail.recentlyQueued(db, user.id, 'password-reset', 60_000)))
      return;
    await changes.run({ system: SYSTEM_ACTOR }, async (change) => {
      const { resetPasswordUrl } = await createResetLink(change, String(user.id), config.baseUrl);
      await mail.queue(
        change,
        passwordResetMessage(
          { email: user.email!, userId: user.id, name: user.name },
          resetPasswordUrl,
          config.baseUrl,
        ),
      );
    });
  };

  // Asked for on the sign-in page: the answer is the same, and as quick, whether the address belongs to anyone, so
  // it tells nobody which addresses have accounts: the account is looked up and the mail queued after answering. A
  // user is sent at most one link a minute, an address may ask 20 times in 15.
  app.post(
    '/auth/reset/password-email',
    {
      schema: {
        summary: 'E-mail a password reset link to the account with this address',
        body: ResetPasswordEmail,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      if (!mail.enabled)
        throw new NotFoundError('This installation sends no e-mail: ask an admin for a password reset link.');
      const asked = `${namespace}:reset-mail:ip:${request.ip}`;
      const count = await redis.incr(asked);
      if (count === 1) await redis.expire(asked, 15 * 60);
      if (count > 20)
        throw new RateLimitError(
          'Too many reset requests from here; try again later.',
          Math.max(1, await redis.ttl(asked)),
        );
      const email = request.body.email;
      setImmediate(() => {
        mailResetLink(email).catch((error: unknown) =>
          log.warn({ err: error }, 'a password reset link asked for on the sign-in page was not queued'),
        );
      });
      return reply.code(200).send();
    },
  );

  // The password rules, checked without changing anything (the reset page asks before sending).
  app.post(
    '/auth/reset/validate-password',
    {
      schema: {
        summary: 'Check a password against the strength rules, before signing in',
        body: ChangePassword,
        response: { 200: NoContent },
      },
    },
    async (_request, reply) => reply.code(200).send(),
  );
}
