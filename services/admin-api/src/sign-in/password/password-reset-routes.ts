import { z } from 'zod';
import { ResetPasswordLink, ResetTokenOwner, NoContent, ChangePassword, ResetPasswordRequest, SYSTEM_ACTOR } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../../app-deps.ts';
import { allow } from '../../access/guard.ts';
import { roleReadModel } from '../../roles/role-read-model.ts';
import { createResetLink, resetPassword, userOfResetToken } from './password-reset.ts';

const Token = z.string().min(1).max(200);

/** Password resets through one-time links. */
export function passwordResetRoutes(app: HttpServer, { db, changes, config, sessions }: Pick<AdminDeps, 'db' | 'changes' | 'config' | 'sessions'>) {
  app.post('/api/admin/user-admin/reset-password', { schema: { summary: 'Make a password reset link for a user', body: ResetPasswordRequest, response: { 200: ResetPasswordLink } } }, async (request) => {
    const principal = allow(request, Permission.ADMIN);
    return changes.run(principal, (change) => createResetLink(change, request.body.id, config.baseUrl));
  });

  app.get('/auth/reset/validate', { schema: { summary: 'Check a password reset link and say whose it is', querystring: z.object({ token: Token }), response: { 200: ResetTokenOwner } } }, async (request) => {
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
  });

  app.post('/auth/reset/password', { schema: { summary: 'Set a new password with a reset link', body: ChangePassword.extend({ token: Token }), response: { 200: NoContent } } }, async (request, reply) => {
    // Whoever held a session of the user (perhaps why the password is being reset) loses it.
    await changes.run({ system: SYSTEM_ACTOR }, async (change) => sessions.endAllOf(await resetPassword(change, request.body.token, request.body.password)));
    return reply.code(200).send();
  });

  // The password rules, checked without changing anything (the reset page asks before sending).
  app.post('/auth/reset/validate-password', { schema: { summary: 'Check a password against the strength rules, before signing in', body: ChangePassword, response: { 200: NoContent } } }, async (_request, reply) => reply.code(200).send());
}
