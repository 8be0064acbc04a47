import { z } from 'zod';
import { ChangePassword, ResetPasswordRequest, SimpleAuthSettings, SYSTEM_ACTOR } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allow } from '../access/guard.ts';
import { roleStore, roleView } from '../roles/role-store.ts';
import { createResetLink, resetPassword, userOfResetToken } from './password-reset.ts';
import { loadSimpleAuthSettings, saveSimpleAuthSettings } from './simple-auth-settings.ts';

const Token = z.string().min(1).max(200);

/** Password resets through one-time links, and the switch that turns password sign-in off. */
export function passwordRoutes(app: HttpServer, { db, changes, config }: AdminDeps) {
  app.post('/api/admin/user-admin/reset-password', { schema: { body: ResetPasswordRequest } }, async (request) => {
    const actor = actorFor(request, Permission.ADMIN);
    return changes.run(actor, (change) => createResetLink(change, request.body.id, config.baseUrl));
  });

  app.get('/auth/reset/validate', { schema: { querystring: z.object({ token: Token }) } }, async (request) => {
    const user = await userOfResetToken(db, request.query.token);
    const role = await roleStore.get(db, user.rootRole);
    return {
      id: user.id,
      name: user.name ?? undefined,
      email: user.email ?? user.username ?? '',
      token: request.query.token,
      createdBy: null,
      role: role ? roleView(role) : null,
    };
  });

  app.post('/auth/reset/password', { schema: { body: ChangePassword.extend({ token: Token }) } }, async (request, reply) => {
    await changes.run(SYSTEM_ACTOR, (change) => resetPassword(change, request.body.token, request.body.password));
    return reply.code(200).send();
  });

  // The password rules, checked without changing anything (the reset page asks before sending).
  app.post('/auth/reset/validate-password', { schema: { body: ChangePassword } }, async (_request, reply) => reply.code(200).send());

  app.get('/api/admin/auth/simple/settings', async (request) => {
    allow(request, Permission.ADMIN);
    return loadSimpleAuthSettings(db);
  });

  app.post('/api/admin/auth/simple/settings', { schema: { body: SimpleAuthSettings } }, async (request) => {
    const actor = actorFor(request, Permission.ADMIN);
    return changes.run(actor, (change) => saveSimpleAuthSettings(change, request.body));
  });
}
