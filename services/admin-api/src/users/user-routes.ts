import { z } from 'zod';
import { ChangeOwnPassword, ChangePassword, CreateUser, NumericId, Profile, UpdateUser, User, UserIds, Users } from '@bunting/contracts';
import { AuthenticationRequired, NoAccessError, Permission, principalOf, sql, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allow, allowRead } from '../access/guard.ts';
import { actorOf } from '../events/changes.ts';
import { roleStore, roleView } from '../roles/role-store.ts';
import { userStore, userView } from './user-store.ts';
import { requireUser, userService } from './user-service.ts';
import { hashPassword, passwordMatches } from './passwords.ts';

const IdParams = z.object({ id: NumericId });

export function userRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  // Seed endpoint 13: every user and every root role.
  app.get('/api/admin/user-admin', { schema: { response: { 200: Users } } }, async (request) => {
    allow(request, Permission.ADMIN);
    return userService.list(db);
  });

  app.get('/api/admin/user-admin/search', { schema: { querystring: z.object({ q: z.string().max(255).default('') }) } }, async (request) => {
    allowRead(request);
    return (await userStore.search(db, request.query.q)).map(userView);
  });

  app.post('/api/admin/user-admin', { schema: { body: CreateUser, response: { 201: User } } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    const created = await changes.run(actor, (change) => userService.create(change, request.body));
    return reply.code(201).header('location', `/api/admin/user-admin/${created.id}`).send(userView(created));
  });

  app.post('/api/admin/user-admin/validate-password', { schema: { body: ChangePassword } }, async (request, reply) => {
    allowRead(request);
    return reply.code(200).send();
  });

  // Users who have not been seen for 180 days (Unleash's "inactive users"), and deleting some of them at once.
  const INACTIVE = sql.fragment`not is_service and coalesce(seen_at, created_at) < now() - interval '180 days'`;
  app.get('/api/admin/user-admin/inactive', async (request) => {
    allow(request, Permission.ADMIN);
    const users = await db.any(sql.type(z.object({ id: z.number(), name: z.string().nullable(), username: z.string().nullable(), email: z.string().nullable(), seenAt: z.string().nullable(), createdAt: z.string() }))`
      select id, name, username, email, seen_at as "seenAt", created_at as "createdAt" from admin.users where ${INACTIVE} order by id`);
    return { version: 1, inactiveUsers: users };
  });

  app.post('/api/admin/user-admin/inactive/delete', { schema: { body: UserIds } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    await changes.run(actor, async (change) => {
      // Only users who really are inactive are deleted; other ids are left alone.
      const ids = await change.tx.anyFirst(sql.type(z.object({ id: z.number() }))`
        select id from admin.users where id = any(${sql.array(request.body.ids, 'int4')}) and ${INACTIVE}`);
      for (const id of ids) await userService.delete(change, id);
    });
    return reply.code(200).send();
  });

  app.get('/api/admin/user-admin/:id', { schema: { params: IdParams, response: { 200: User } } }, async (request) => {
    allow(request, Permission.ADMIN);
    return userView(await requireUser(db, request.params.id));
  });

  app.put('/api/admin/user-admin/:id', { schema: { params: IdParams, body: UpdateUser, response: { 200: User } } }, async (request) => {
    const actor = actorFor(request, Permission.ADMIN);
    return changes.run(actor, (change) => userService.update(change, request.params.id, request.body));
  });

  app.delete('/api/admin/user-admin/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    await changes.run(actor, (change) => userService.delete(change, request.params.id));
    return reply.code(200).send();
  });

  app.post('/api/admin/user-admin/:id/change-password', { schema: { params: IdParams, body: ChangePassword } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    await changes.run(actor, (change) => userService.setPassword(change, request.params.id, request.body.password));
    return reply.code(200).send();
  });

  app.get('/api/admin/user', async (request) => {
    // SDK tokens have no place on the admin API, not even to ask who they are.
    const principal = allowRead(request);
    const user = principal.userId !== null ? await userStore.get(db, principal.userId) : null;
    const permissions = [
      ...principal.permissions.map((permission) => ({ permission })),
      ...Object.entries(principal.projectPermissions).flatMap(([project, list]) => list.map((permission) => ({ permission, project }))),
      ...Object.entries(principal.environmentPermissions).flatMap(([scope, list]) => {
        const [project, environment] = scope.split(':');
        return list.map((permission) => ({ permission, project, environment }));
      }),
    ];
    return {
      user: user ? userView(user) : { id: -42, name: principal.name, isAPI: true, permissions: [] },
      permissions,
      feedback: [],
      splash: {},
    };
  });

  // Seed endpoint 7: the caller's root role and the projects they are a member of; features is always [].
  app.get('/api/admin/user/profile', { schema: { response: { 200: Profile } } }, async (request) => {
    const principal = allowRead(request);
    const roleId = principal.rootRole ?? (principal.permissions.includes(Permission.ADMIN) ? 1 : 3);
    const role = await roleStore.get(db, roleId);
    const projects = principal.userId === null ? [] : await db.anyFirst(sql.type(z.object({ project: z.string() }))`
      select distinct project_id as project from (
        select project_id from admin.project_user_roles where user_id = ${principal.userId}
        union select pgr.project_id from admin.project_group_roles pgr join admin.group_users gu on gu.group_id = pgr.group_id
          where gu.user_id = ${principal.userId}) memberships order by project`);
    return { rootRole: roleView(role!), projects: [...projects], features: [] };
  });

  app.get('/api/admin/user/roles', async (request) => {
    const principal = allowRead(request);
    const ids = [principal.rootRole ?? 1];
    return (await roleStore.list(db)).filter((role) => ids.includes(role.id)).map(roleView);
  });

  app.post('/api/admin/user/change-password', { schema: { body: ChangeOwnPassword } }, async (request, reply) => {
    const principal = principalOf(request);
    if (principal.userId === null || principal.kind !== 'user') throw new NoAccessError('CHANGE_OWN_PASSWORD');
    if (request.body.confirmPassword !== undefined && request.body.confirmPassword !== request.body.password) {
      throw new AuthenticationRequired('The passwords do not match');
    }
    const user = await requireUser(db, principal.userId);
    if (request.body.oldPassword !== undefined && !(await passwordMatches(user.passwordHash, request.body.oldPassword))) {
      throw new AuthenticationRequired('The old password is wrong');
    }
    await changes.run(actorOf(principal), async (change) => {
      await userStore.setPassword(change.tx, user.id, await hashPassword(request.body.password));
      change.emit({ type: 'user-updated', data: { id: user.id, passwordChanged: true } });
    });
    return reply.code(200).send();
  });

}
