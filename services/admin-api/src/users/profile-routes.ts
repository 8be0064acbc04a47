import { z } from 'zod';
import {
  CurrentUser,
  OwnRoles,
  NoContent,
  ChangeOwnPassword,
  NotificationPreferences,
  Profile,
} from '@bunting/contracts';
import {
  AuthenticationRequired,
  NoAccessError,
  OperationRefused,
  Permission,
  credentialOf,
  principalOf,
  type HttpServer,
} from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { roleReadModel } from '../roles/role-read-model.ts';
import { userReadModel, userView } from './user-read-model.ts';
import { userService } from './user-service.ts';
import { passwordMatches } from './passwords.ts';
import { feedbackGiven } from '../feedback/feedback-read-model.ts';
import { splashSeen } from '../splash/splash-read-model.ts';

/** The caller's own account: who they are, their root role and projects, their password. */
export function profileRoutes(
  app: HttpServer,
  { db, changes, sessions, config }: Pick<AdminDeps, 'db' | 'changes' | 'sessions' | 'config'>,
) {
  app.get(
    '/api/admin/user',
    { schema: { summary: 'The caller, their permissions and seen splash screens', response: { 200: CurrentUser } } },
    async (request) => {
      // SDK tokens have no place on the admin API, not even to ask who they are.
      const principal = allowRead(request);
      const user = principal.userId !== null ? await userReadModel.find(db, principal.userId) : null;
      const permissions = [
        ...principal.permissions.map((permission) => ({ permission })),
        ...Object.entries(principal.projectPermissions).flatMap(([project, list]) =>
          list.map((permission) => ({ permission, project })),
        ),
        ...Object.entries(principal.environmentPermissions).flatMap(([scope, list]) => {
          const [project, environment] = scope.split(':');
          return list.map((permission) => ({ permission, project, environment }));
        }),
      ];
      return {
        user: user ? userView(user) : { id: -42, name: principal.name, isAPI: true, permissions: [] },
        permissions,
        feedback: principal.userId !== null && principal.userId > 0 ? await feedbackGiven(db, principal.userId) : [],
        splash: principal.userId !== null ? await splashSeen(db, principal.userId) : {},
      };
    },
  );

  // The caller's root role and the projects they are a member of; features is always [].
  app.get(
    '/api/admin/user/profile',
    { schema: { summary: "The caller's root role, projects and groups", response: { 200: Profile } } },
    async (request) => {
      const principal = allowRead(request);
      const roleId = principal.rootRole ?? (principal.permissions.includes(Permission.ADMIN) ? 1 : 3);
      const role = await roleReadModel.view(db, roleId);
      const [projects, groups, user] =
        principal.userId === null
          ? [[], [], null]
          : await Promise.all([
              userReadModel.projectsOf(db, principal.userId),
              userReadModel.groupsOf(db, principal.userId),
              userReadModel.find(db, principal.userId),
            ]);
      // Subscriptions are Unleash's e-mail reports; Bunting sends no e-mail. A password can be changed by a person who has one.
      const canChangePassword = user !== null && !user.isService && user.passwordHash !== null;
      return {
        rootRole: role!,
        projects: [...projects],
        groups: [...groups],
        features: [],
        subscriptions: [],
        canChangePassword,
      };
    },
  );

  // As Unleash: the caller's roles in the project given (directly or through groups); without a project, 400.
  app.get(
    '/api/admin/user/roles',
    {
      schema: {
        summary: "The caller's roles",
        querystring: z.object({ projectId: z.string().min(1).max(255) }),
        response: { 200: OwnRoles },
      },
    },
    async (request) => {
      const principal = allowRead(request);
      const roles =
        principal.userId === null
          ? []
          : await userReadModel.projectRolesOf(db, principal.userId, request.query.projectId);
      return { version: 1, roles };
    },
  );

  app.post(
    '/api/admin/user/change-password',
    { schema: { summary: "Change the caller's own password", body: ChangeOwnPassword, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.userId === null || principal.kind !== 'user') throw new NoAccessError('CHANGE_OWN_PASSWORD');
      if (request.body.confirmPassword !== undefined && request.body.confirmPassword !== request.body.password) {
        throw new AuthenticationRequired('The passwords do not match');
      }
      const user = await userReadModel.requireUser(db, principal.userId);
      if (!(await passwordMatches(user.passwordHash, request.body.oldPassword))) {
        throw new AuthenticationRequired('The old password is wrong');
      }
      // Every other session of the user ends; this one goes on.
      await changes.run(principal, async (change) => {
        await userService.setPassword(change, user.id, request.body.password, config.passwordHashing);
        await sessions.endAllOf(user.id, credentialOf(request).session);
      });
      return reply.code(200).send();
    },
  );

  // Personal, so any signed-in person sets their own (a read-only user too); tokens of no person have none.
  const person = (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    if (principal.userId === null)
      throw new OperationRefused('Only a person has e-mail preferences: sign in, or use a personal access token.');
    return principal.userId;
  };
  app.get(
    '/api/admin/user/notifications',
    { schema: { summary: 'What the caller is e-mailed about', response: { 200: NotificationPreferences } } },
    async (request) => {
      allowRead(request);
      return await userService.notificationPreferences(db, person(request));
    },
  );
  app.put(
    '/api/admin/user/notifications',
    {
      schema: {
        summary: 'Choose what the caller is e-mailed about',
        body: NotificationPreferences,
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => {
      const principal = allowRead(request);
      const userId = person(request);
      await changes.run(principal, (change) => userService.setNotificationPreferences(change, userId, request.body));
      return userService.notificationPreferences(db, userId);
    },
  );
}
