import { z } from 'zod';
import { ApiTokenList, NoContent, ApiToken, CreateApiToken, PathName, UpdateApiToken } from '@bunting/contracts';
import { Permission, ValidationError, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { apiTokenService } from './api-token-service.ts';
import { noteWho } from '../access-history/access-hook.ts';

const createPermission = {
  admin: Permission.ADMIN,
  client: Permission.CREATE_CLIENT_API_TOKEN,
  backend: Permission.CREATE_CLIENT_API_TOKEN,
  frontend: Permission.CREATE_FRONTEND_API_TOKEN,
} as const;

/** Where a made token is read (by its name): never its secret, which a header would carry into proxies' logs. */
const tokenLocation = (name: string) => `/api/admin/api-tokens/${encodeURIComponent(name)}`;

const TokenParams = z.object({ token: z.string().min(1).max(1000) });

export function apiTokenRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get(
    '/api/admin/api-tokens',
    {
      schema: {
        summary: 'List the API tokens (secrets shown only to admins who may)',
        response: { 200: ApiTokenList },
      },
    },
    async (request) => {
      allow(request, Permission.READ_API_TOKEN);
      return apiTokenService.list(db);
    },
  );

  app.get(
    '/api/admin/api-tokens/:name',
    {
      schema: {
        summary: 'List the API tokens with a name',
        params: z.object({ name: PathName }),
        response: { 200: ApiTokenList },
      },
    },
    async (request) => {
      allow(request, Permission.READ_API_TOKEN);
      return apiTokenService.listByName(db, request.params.name);
    },
  );

  app.post(
    '/api/admin/api-tokens',
    {
      schema: {
        summary: 'Create an API token for an SDK, Edge or a script',
        body: CreateApiToken,
        response: { 201: ApiToken },
      },
      config: { access: { method: 'api-token', action: 'created' } },
    },
    async (request, reply) => {
      noteWho(request, {
        detail: `${request.body.type} token ${request.body.tokenName ?? request.body.username ?? ''}`,
      });
      const principal = allow(request, createPermission[request.body.type]);
      const created = await changes.run(principal, (change) => apiTokenService.create(change, request.body));
      return reply.code(201).header('location', tokenLocation(created.tokenName)).send(created);
    },
  );

  app.put(
    '/api/admin/api-tokens/:token',
    {
      schema: {
        summary: 'Change when an API token expires',
        params: TokenParams,
        body: UpdateApiToken,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_CLIENT_API_TOKEN);
      await changes.run(principal, (change) =>
        apiTokenService.updateExpiry(change, request.params.token, request.body.expiresAt),
      );
      return reply.code(200).send();
    },
  );

  app.delete(
    '/api/admin/api-tokens/:token',
    { schema: { summary: 'Revoke an API token', params: TokenParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_CLIENT_API_TOKEN);
      await changes.run(principal, (change) => apiTokenService.delete(change, request.params.token));
      return reply.code(200).send();
    },
  );

  const ProjectParams = z.object({ projectId: PathName });

  app.get(
    '/api/admin/projects/:projectId/api-tokens',
    {
      schema: {
        summary: 'List the API tokens scoped to a project',
        params: ProjectParams,
        response: { 200: ApiTokenList },
      },
    },
    async (request) => {
      allow(request, Permission.READ_PROJECT_API_TOKEN, { project: request.params.projectId });
      return apiTokenService.listForProject(db, request.params.projectId);
    },
  );

  app.post(
    '/api/admin/projects/:projectId/api-tokens',
    {
      schema: {
        summary: 'Create an API token scoped to a project',
        params: ProjectParams,
        body: CreateApiToken,
        response: { 201: ApiToken },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const principal = allow(request, Permission.CREATE_PROJECT_API_TOKEN, { project: projectId });
      await apiTokenService.requireProject(db, projectId);
      // A project's token is an SDK token of that project: asking for more is refused, not quietly narrowed.
      if (request.body.type === 'admin')
        throw ValidationError.field('type', 'a project API token is a client or frontend token, never an admin one');
      const named = request.body.projects ?? (request.body.project ? [request.body.project] : [projectId]);
      if (named.some((project) => project !== projectId))
        throw ValidationError.field('projects', `a token made in project ${projectId} can see that project only`);
      const body = { ...request.body, projects: [projectId], project: undefined };
      const created = await changes.run(principal, (change) => apiTokenService.create(change, body));
      return reply.code(201).header('location', tokenLocation(created.tokenName)).send(created);
    },
  );

  app.delete(
    '/api/admin/projects/:projectId/api-tokens/:token',
    {
      schema: {
        summary: "Revoke a project's API token",
        params: ProjectParams.extend(TokenParams.shape),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_PROJECT_API_TOKEN, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        apiTokenService.delete(change, request.params.token, request.params.projectId),
      );
      return reply.code(200).send();
    },
  );
}
