import { z } from 'zod';
import {
  UserSearchAnswer,
  AdminCounts,
  InactiveUsers,
  NoContent,
  ChangePassword,
  CreateUser,
  NumericId,
  UpdateUser,
  User,
  UserIds,
  Users,
} from '@bunting/contracts';
import { OperationRefused, Permission, type HttpServer, type Queryable } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { userReadModel, userView } from './user-read-model.ts';
import { userService } from './user-service.ts';
import { unlockUser } from './login-lock.ts';

const IdParams = z.object({ id: NumericId });

/** A user an identity provider manages through SCIM is changed there; here an admin may still give a root role. */
async function refuseManaged(db: Queryable, id: number, what: string) {
  const user = await userReadModel.requireUser(db, id);
  if (user.scimId)
    throw new OperationRefused(
      `${user.username ?? user.email ?? `User ${id}`} is managed by your identity provider through SCIM: ${what} there.`,
    );
}

export function userRoutes(
  app: HttpServer,
  {
    db,
    changes,
    sessions,
    redis,
    namespace,
    inviteLink,
    welcome,
    config,
  }: Pick<AdminDeps, 'db' | 'changes' | 'sessions' | 'redis' | 'namespace' | 'inviteLink' | 'welcome' | 'config'>,
) {
  // Every user and every root role.
  app.get(
    '/api/admin/user-admin',
    { schema: { summary: 'List the users and the root roles', response: { 200: Users } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return userService.list(db);
    },
  );

  app.get(
    '/api/admin/user-admin/search',
    {
      schema: {
        summary: 'Find users by name, username or email',
        querystring: z.object({ q: z.string().max(255).default('') }),
        response: { 200: UserSearchAnswer },
      },
    },
    async (request) => {
      allowRead(request);
      return userService.search(db, request.query.q);
    },
  );

  app.post(
    '/api/admin/user-admin',
    { schema: { summary: 'Create a user, with a one-time password link', body: CreateUser, response: { 201: User } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      // As in Unleash the answer carries a one-time link to choose a password, for the admin to pass on; with
      // sendEmail a welcome mail carries it too (queued with the account: emailSent says true once it has gone out).
      const { user: created, link } = await changes.run(principal, async (change) => {
        const user = await userService.create(change, request.body, { hashing: config.passwordHashing });
        const link = await inviteLink(change, user.id);
        if (request.body.sendEmail) await welcome(change, user, link);
        return { user, link };
      });
      return reply
        .code(201)
        .header('location', `/api/admin/user-admin/${created.id}`)
        .send({ ...userView(created), inviteLink: link });
    },
  );

  app.post(
    '/api/admin/user-admin/validate-password',
    {
      schema: {
        summary: 'Check a password against the strength rules',
        body: ChangePassword,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      allowRead(request);
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/user-admin/admin-count',
    { schema: { summary: 'How many admins there are, by how they sign in', response: { 200: AdminCounts } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return userReadModel.adminCount(db);
    },
  );

  // Users who have not been seen for 180 days (Unleash's "inactive users"), and deleting some of them at once.
  app.get(
    '/api/admin/user-admin/inactive',
    { schema: { summary: 'Users who have not signed in for 180 days', response: { 200: InactiveUsers } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      const users = await userReadModel.inactive(db);
      return {
        version: 1,
        inactiveUsers: users.map(({ id, name, username, email, seenAt, createdAt }) => ({
          id,
          name,
          username,
          email,
          seenAt,
          createdAt,
        })),
      };
    },
  );

  app.post(
    '/api/admin/user-admin/inactive/delete',
    { schema: { summary: 'Delete chosen inactive users', body: UserIds, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      // Their sessions end with them, in the same unit: if Redis cannot be reached nothing is deleted.
      await changes.run(principal, async (change) => {
        for (const id of await userService.deleteInactive(change, request.body.ids)) await sessions.endAllOf(id);
      });
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/user-admin/:id',
    { schema: { summary: 'Get one user', params: IdParams, response: { 200: User } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return userView(await userReadModel.requireUser(db, request.params.id));
    },
  );

  app.put(
    '/api/admin/user-admin/:id',
    {
      schema: {
        summary: "Change a user's name, email or root role",
        params: IdParams,
        body: UpdateUser,
        response: { 200: User },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      if (request.body.name !== undefined || request.body.email !== undefined)
        await refuseManaged(db, request.params.id, 'change their name and e-mail');
      return changes.run(principal, (change) => userService.update(change, request.params.id, request.body));
    },
  );

  // Unleash's route: every user SCIM provisioned goes (for an installation leaving SCIM behind).
  app.delete(
    '/api/admin/user-admin/scim-users',
    { schema: { summary: 'Delete every user SCIM provisioned', response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      const managed = await userReadModel.scimManaged(db);
      await changes.run(principal, async (change) => {
        for (const user of managed) await userService.delete(change, user.id);
      });
      for (const user of managed) await sessions.endAllOf(user.id);
      return reply.code(200).send();
    },
  );

  app.delete(
    '/api/admin/user-admin/:id',
    { schema: { summary: 'Delete a user', params: IdParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await refuseManaged(db, request.params.id, 'remove them');
      await changes.run(principal, async (change) => {
        await userService.delete(change, request.params.id);
        await sessions.endAllOf(request.params.id);
      });
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/admin/user-admin/:id/change-password',
    {
      schema: {
        summary: "Set another user's password",
        params: IdParams,
        body: ChangePassword,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await refuseManaged(db, request.params.id, 'they sign in through the provider; set passwords');
      // Every session of the user ends with the old password.
      await changes.run(principal, async (change) => {
        await userService.setPassword(change, request.params.id, request.body.password, config.passwordHashing);
        await sessions.endAllOf(request.params.id);
      });
      // A new password set by an admin is meant to be used now: a lock from failed sign-ins goes with the old one.
      await unlockUser(redis, namespace, request.params.id);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/admin/user-admin/:id/unlock',
    {
      schema: {
        summary: 'Lift the lock that failed sign-ins put on a user',
        params: IdParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, (change) => userService.unlock(change, request.params.id));
      await unlockUser(redis, namespace, request.params.id);
      return reply.code(200).send();
    },
  );
}
