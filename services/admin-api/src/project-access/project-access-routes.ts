import { z } from 'zod';
import {
  ProjectAccessView,
  RoleProjectAccess,
  NoContent,
  NumericId,
  PathName,
  ProjectAccessInput,
  ProjectAccessConfiguration,
  RoleIds,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { projectAccessService } from './project-access-service.ts';

const ProjectParams = z.object({ projectId: PathName });
const ids = (list: (number | { id: number })[] | undefined) =>
  (list ?? []).map((entry) => (typeof entry === 'number' ? entry : entry.id));

/** Unleash's configuration shape names each role as an object; POST's shape lists role ids. */
const isConfiguration = (
  body: ProjectAccessConfiguration | z.infer<typeof ProjectAccessInput>,
): body is ProjectAccessConfiguration => body.roles.every((role) => typeof role === 'object');

export function projectAccessRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/projects/:projectId/access',
    {
      schema: {
        summary: 'Who has which role in a project, users and groups',
        params: ProjectParams,
        response: { 200: ProjectAccessView },
      },
    },
    async (request) => {
      allow(request, Permission.PROJECT_USER_ACCESS_READ, { project: request.params.projectId });
      return projectAccessService.overview(db, request.params.projectId);
    },
  );

  app.post(
    '/api/admin/projects/:projectId/access',
    {
      schema: {
        summary: 'Give users and groups roles in a project',
        params: ProjectParams,
        body: ProjectAccessInput,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.PROJECT_USER_ACCESS_WRITE, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        projectAccessService.add(change, request.params.projectId, {
          roles: request.body.roles,
          users: ids(request.body.users),
          groups: ids(request.body.groups),
        }),
      );
      return reply.code(200).send();
    },
  );

  app.put(
    '/api/admin/projects/:projectId/access',
    {
      schema: {
        summary: "Set a project's whole access: each role with its users and groups",
        description:
          "Takes Unleash's shape, {roles: [{id, users, groups}]}: whoever it does not name loses their roles in the " +
          'project. Role ids with users and groups, as POST takes them, are added instead. Takes an admin API token, a ' +
          'personal access token or a session cookie with PROJECT_USER_ACCESS_WRITE in the project; the change and its ' +
          'event are written in one transaction.',
        params: ProjectParams,
        body: z.union([ProjectAccessConfiguration, ProjectAccessInput]),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.PROJECT_USER_ACCESS_WRITE, { project: request.params.projectId });
      const { projectId } = request.params;
      const body = request.body;
      await changes.run(principal, (change) =>
        isConfiguration(body)
          ? projectAccessService.configure(change, projectId, body.roles)
          : projectAccessService.add(change, projectId, {
              roles: body.roles,
              users: ids(body.users),
              groups: ids(body.groups),
            }),
      );
      return reply.code(200).send();
    },
  );

  for (const subject of ['user', 'group'] as const) {
    const path = `/api/admin/projects/:projectId/${subject}s/:subjectId/roles`;
    const Params = ProjectParams.extend({ subjectId: NumericId });
    app.put(
      path,
      {
        schema: {
          summary: `Set a ${subject}'s roles in a project`,
          params: Params,
          body: RoleIds,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        const principal = allow(request, Permission.PROJECT_USER_ACCESS_WRITE, { project: request.params.projectId });
        await changes.run(principal, (change) =>
          projectAccessService.setRoles(
            change,
            request.params.projectId,
            subject,
            request.params.subjectId,
            request.body.roles,
          ),
        );
        return reply.code(200).send();
      },
    );
    app.delete(
      path,
      { schema: { summary: `Remove a ${subject} from a project`, params: Params, response: { 200: NoContent } } },
      async (request, reply) => {
        const principal = allow(request, Permission.PROJECT_USER_ACCESS_WRITE, { project: request.params.projectId });
        await changes.run(principal, (change) =>
          projectAccessService.setRoles(change, request.params.projectId, subject, request.params.subjectId, []),
        );
        return reply.code(200).send();
      },
    );
  }

  // Deprecated: give a group one role in a project; replaced by PUT .../groups/:groupId/roles.
  app.put(
    '/api/admin/projects/:projectId/groups/:groupId/roles/:roleId',
    {
      schema: {
        summary: 'Give a group one role in a project (deprecated)',
        params: ProjectParams.extend({ groupId: NumericId, roleId: NumericId }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, groupId, roleId } = request.params;
      const principal = allow(request, Permission.PROJECT_USER_ACCESS_WRITE, { project: projectId });
      await changes.run(principal, (change) =>
        projectAccessService.setRoles(change, projectId, 'group', groupId, [roleId]),
      );
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/projects/roles/:roleId/access',
    {
      schema: {
        summary: 'Which users have a role, in which projects',
        params: z.object({ roleId: NumericId }),
        response: { 200: RoleProjectAccess },
      },
    },
    async (request) => {
      allow(request, Permission.ADMIN);
      return projectAccessService.usersWithRole(db, request.params.roleId);
    },
  );
}
