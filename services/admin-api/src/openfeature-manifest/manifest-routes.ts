import {
  CreateManifestFlag,
  ManifestArchiveResponse,
  ManifestEnvelope,
  ManifestError,
  ManifestFlagResponse,
  ManifestQuery,
  UpdateManifestFlag,
  type Principal,
} from '@bunting/contracts';
import { authenticate, hasPermission, Permission, type HttpServer } from '@bunting/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { loadMaintenance, maintenanceError } from '../maintenance/maintenance.ts';
import { handleManifestError, manifestNotFound } from './manifest-errors.ts';
import { manifestService } from './manifest-service.ts';

const PREFIX = '/openfeature/v0';
const KeyParams = z.object({ key: z.string().min(1).max(255) });
const CAPABILITIES = 'x-manifest-capabilities';

const refusals = {
  400: ManifestError,
  401: ManifestError,
  403: ManifestError,
  404: ManifestError,
  409: ManifestError,
  503: ManifestError,
  default: ManifestError,
};

/** Where a new flag goes: the project asked for, else a token's one project, else `default`. */
function targetProject(principal: Principal, asked: string | undefined): string {
  if (asked) return asked;
  const projects = principal.projects.filter((project) => project !== '*');
  return projects.length === 1 && !principal.projects.includes('*') ? projects[0]! : 'default';
}

/** Projects an API token is limited to (null: no limit beyond its permissions). */
function tokenProjects(principal: Principal): string[] | null {
  return principal.projects.length === 0 || principal.projects.includes('*') ? null : principal.projects;
}

function capabilities(principal: Principal, project: string): string {
  const scope = { project };
  const held = ['read'];
  if (
    hasPermission(principal, Permission.CREATE_FEATURE, scope) ||
    hasPermission(principal, Permission.UPDATE_FEATURE, scope)
  )
    held.push('write');
  if (hasPermission(principal, Permission.DELETE_FEATURE, scope)) held.push('delete');
  return held.join(',');
}

/** The tool a change came through, for the event's createdVia (the OpenFeature CLI sends `openfeature-cli/sync`). */
function viaTool(request: FastifyRequest): void {
  const principal = request.principal;
  if (!principal || principal.via) return;
  const agent = request.headers['user-agent'];
  if (typeof agent === 'string' && agent.trim() !== '')
    request.principal = { ...principal, via: agent.trim().slice(0, 200) };
}

/**
 * The OpenFeature CLI's manifest API (open-feature/cli api/v0/sync.yaml) at /openfeature/v0: every active flag with an
 * OpenFeature type and default, and create, update and archive. Any admin credential, with the permissions its
 * routes in /api/admin need; each change goes through the same gate and writes the same events.
 */
export function manifestRoutes(
  app: HttpServer,
  { db, changes, verifier }: Pick<AdminDeps, 'db' | 'changes' | 'verifier'>,
) {
  void app.register(
    async (instance) => {
      const manifest = instance as unknown as HttpServer;
      manifest.setErrorHandler(handleManifestError);
      manifest.addHook('onRequest', async (request) => {
        await authenticate(verifier, request);
        viaTool(request);
        if (request.method !== 'GET' && (await loadMaintenance(db)).enabled) throw maintenanceError();
      });

      const withCapabilities = (reply: FastifyReply, principal: Principal, project: string) =>
        reply.header(CAPABILITIES, capabilities(principal, project));

      manifest.get(
        '/manifest',
        {
          schema: {
            summary:
              'OpenFeature manifest: every active flag with its type and default (flags made in Bunting are typed from their variants)',
            querystring: ManifestQuery,
            response: { 200: ManifestEnvelope, ...refusals },
          },
        },
        async (request, reply) => {
          const principal = allowRead(request);
          const flags = await manifestService.list(db, tokenProjects(principal));
          withCapabilities(reply, principal, targetProject(principal, request.query.project));
          return { flags };
        },
      );

      manifest.post(
        '/manifest/flags',
        {
          schema: {
            summary:
              'OpenFeature manifest: create a flag, off everywhere, with its type and default (a key in use or archived: 409)',
            querystring: ManifestQuery,
            body: CreateManifestFlag,
            response: { 201: ManifestFlagResponse, ...refusals },
          },
        },
        async (request, reply) => {
          const project = targetProject(request.principal!, request.query.project);
          const principal = allow(request, Permission.CREATE_FEATURE, { project });
          const created = await changes.run(principal, (change) =>
            manifestService.create(change, project, request.body),
          );
          withCapabilities(reply, principal, project);
          return reply
            .code(201)
            .header('location', `${PREFIX}/manifest/flags/${encodeURIComponent(created.flag.key)}`)
            .send(created);
        },
      );

      manifest.put(
        '/manifest/flags/:key',
        {
          schema: {
            summary:
              "OpenFeature manifest: replace a flag's name, description and default (its type never changes: 409)",
            params: KeyParams,
            body: UpdateManifestFlag,
            response: { 200: ManifestFlagResponse, ...refusals },
          },
        },
        async (request, reply) => {
          const project = (await manifestService.find(db, request.params.key))?.project ?? 'default';
          const principal = allow(request, Permission.UPDATE_FEATURE, { project });
          const updated = await changes.run(principal, (change) =>
            manifestService.update(change, request.params.key, request.body),
          );
          withCapabilities(reply, principal, project);
          return updated;
        },
      );

      manifest.delete(
        '/manifest/flags/:key',
        {
          schema: {
            summary: 'OpenFeature manifest: archive a flag (it can be revived from the archive)',
            params: KeyParams,
            response: { 200: ManifestArchiveResponse, ...refusals },
          },
        },
        async (request, reply) => {
          const project = (await manifestService.find(db, request.params.key))?.project ?? 'default';
          const principal = allow(request, Permission.DELETE_FEATURE, { project });
          const archived = await changes.run(principal, (change) =>
            manifestService.archive(change, request.params.key),
          );
          withCapabilities(reply, principal, project);
          return archived;
        },
      );

      manifest.all('/*', { schema: { hide: true } }, manifestNotFound);
    },
    { prefix: PREFIX },
  );
}
