import { z } from 'zod';
import { ProjectList, NoContent, CreateProject, PathName, Project, UpdateProject } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { projectService } from './project-service.ts';

const ProjectParams = z.object({ projectId: PathName });

/** Projects themselves: list, create, read, change, archive, delete. */
export function projectRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/projects',
    { schema: { summary: 'List the projects with their counts', response: { 200: ProjectList } } },
    async (request) => {
      const principal = allowRead(request);
      return projectService.list(db, principal.key);
    },
  );

  app.post(
    '/api/admin/projects',
    { schema: { summary: 'Create a project', body: CreateProject, response: { 201: Project } } },
    async (request, reply) => {
      const principal = allow(request, Permission.CREATE_PROJECT);
      const created = await changes.run(principal, (change) => projectService.create(change, request.body));
      return reply
        .code(201)
        .header('location', `/api/admin/projects/${encodeURIComponent(created.id)}`)
        .send(created);
    },
  );

  app.post(
    '/api/admin/projects/validate',
    {
      schema: {
        summary: 'Check that a project id is free and well formed',
        body: z.object({ id: CreateProject.shape.id }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      allowRead(request);
      await projectService.validateId(db, request.body.id);
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/projects/:projectId',
    { schema: { summary: 'Get one project', params: ProjectParams, response: { 200: Project } } },
    async (request) => {
      const principal = allowRead(request, { project: request.params.projectId });
      return projectService.get(db, request.params.projectId, principal.key);
    },
  );

  for (const [path, summary] of [
    ['/api/admin/projects/:projectId', "Change a project's name, description and settings"],
    ['/api/admin/projects/:projectId/settings', "Change a project's settings (mode, stickiness, flag limit, naming)"],
  ] as const) {
    app.put(
      path,
      { schema: { summary, params: ProjectParams, body: UpdateProject, response: { 200: Project } } },
      async (request) => {
        const principal = allow(request, Permission.UPDATE_PROJECT, { project: request.params.projectId });
        return changes.run(principal, (change) =>
          projectService.update(change, request.params.projectId, request.body),
        );
      },
    );
  }

  app.delete(
    '/api/admin/projects/:projectId',
    {
      schema: { summary: 'Delete a project that holds no flags', params: ProjectParams, response: { 200: NoContent } },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_PROJECT, { project: request.params.projectId });
      await changes.run(principal, (change) => projectService.delete(change, request.params.projectId));
      return reply.code(200).send();
    },
  );

  for (const [action, archived, summary] of [
    ['archive', true, 'Archive a project'],
    ['revive', false, 'Bring an archived project back'],
  ] as const) {
    app.post(
      `/api/admin/projects/${action}/:projectId`,
      { schema: { summary, params: ProjectParams, response: { 200: NoContent } } },
      async (request, reply) => {
        const principal = allow(request, Permission.DELETE_PROJECT, { project: request.params.projectId });
        await changes.run(principal, (change) =>
          projectService.setArchived(change, request.params.projectId, archived),
        );
        return reply.code(200).send();
      },
    );
  }
}
