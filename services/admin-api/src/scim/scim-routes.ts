import { randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  SYSTEM_ACTOR,
  NoContent,
  ScimDescription,
  ScimGroup,
  ScimGroupInput,
  ScimListQuery,
  ScimPatchRequest,
  ScimSettings,
  ScimToken,
  ScimUser,
  ScimUserInput,
  UpdateScimSettings,
  scimList,
  type Actor,
} from '@bunting/contracts';
import { JsonBodyError, Permission, readJsonBody, type HttpServer } from '@bunting/platform';
import type { FastifyRequest } from 'fastify';
import type { AdminDeps } from '../app-deps.ts';
import type { Change } from '../events/changes.ts';
import { allow } from '../access/guard.ts';
import { hashSecret } from '../api-tokens/token-secret.ts';
import { handleScimError, scimErrorShape, ScimError } from './scim-errors.ts';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.ts';
import { scimGroups } from './scim-groups.ts';
import { listResponse } from './scim-list.ts';
import { scimSettingsStore } from './scim-settings-store.ts';
import { scimUsers } from './scim-users.ts';
import { clientOf, recordAccess } from '../access-history/access-recorder.ts';
import { userReadModel } from '../users/user-read-model.ts';

// Events of provisioning name the provider's channel as their author.
const SCIM_ACTOR: Actor = { createdBy: 'scim', createdByUserId: SYSTEM_ACTOR.createdByUserId };
const Id = z.object({ id: z.string().min(1).max(255) });
const SCIM_TYPE = 'application/scim+json';

/** The console's SCIM settings: on or off, and a token made here and shown once (only its hash is kept). */
export function scimSettingsRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/scim-settings',
    {
      schema: {
        summary: 'Whether SCIM provisioning is on, and whether a token was made',
        response: { 200: ScimSettings },
      },
    },
    async (request) => {
      allow(request, Permission.ADMIN);
      const settings = await scimSettingsStore.get(db);
      return { enabled: settings.enabled, hasToken: settings.tokenHash !== null };
    },
  );
  app.post(
    '/api/admin/scim-settings',
    {
      schema: {
        summary: 'Turn SCIM provisioning on or off',
        body: UpdateScimSettings,
        response: { 200: ScimSettings },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, async (change) => {
        await scimSettingsStore.setEnabled(change.tx, request.body.enabled);
        change.emit({ type: 'setting-updated', data: { id: 'scim', enabled: request.body.enabled } });
      });
      const settings = await scimSettingsStore.get(db);
      return { enabled: settings.enabled, hasToken: settings.tokenHash !== null };
    },
  );
  app.post(
    '/api/admin/scim-settings/generate-new-token',
    {
      schema: {
        summary: 'Make the token the identity provider sends (the one before stops working)',
        response: { 200: ScimToken },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      const token = `scim_${randomBytes(32).toString('base64url')}`;
      await changes.run(principal, async (change) => {
        await scimSettingsStore.setTokenHash(change.tx, hashSecret(token));
        change.emit({ type: 'setting-updated', data: { id: 'scim', token: '*****' } });
      });
      return { token };
    },
  );
}

/** SCIM 2.0 (RFC 7644) at /scim/v2, for identity providers (Okta, Entra ID...) with the token made in the console. */
export function scimRoutes(
  app: HttpServer,
  { db, changes, sessions, config, log }: Pick<AdminDeps, 'db' | 'changes' | 'sessions' | 'config' | 'log'>,
) {
  const users = scimUsers({ sessions, baseUrl: config.baseUrl });
  /** Runs a change to a SCIM user and records in the sign-in history when it deactivated an active account. */
  const changingUser = async <T>(request: FastifyRequest, scimId: string, work: () => Promise<T>): Promise<T> => {
    const before = await userReadModel.findByScimId(db, scimId);
    const result = await work();
    const after = before ? await userReadModel.find(db, before.id) : null;
    if (before?.active && after?.active !== true)
      await recordAccess(db, log, clientOf(request), {
        method: 'scim',
        action: 'deactivated',
        outcome: 'success',
        userId: before.id,
        name: before.username ?? before.email ?? null,
      });
    return result;
  };
  const groups = scimGroups({ baseUrl: config.baseUrl });

  async function authorize(request: FastifyRequest) {
    const settings = await scimSettingsStore.get(db);
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!settings.enabled)
      throw new ScimError(
        401,
        'SCIM provisioning is off on this installation; an admin turns it on in the sign-in settings.',
      );
    if (
      !given ||
      settings.tokenHash === null ||
      !timingSafeEqual(Buffer.from(hashSecret(given), 'hex'), Buffer.from(settings.tokenHash, 'hex'))
    ) {
      throw new ScimError(401, "Send the SCIM token made in Bunting's sign-in settings as a Bearer token.");
    }
  }

  void app.register(
    async (instance) => {
      const scim = instance as unknown as HttpServer;
      // Providers send application/scim+json, some plain JSON: both are read here, so both refuse what SCIM refuses.
      scim.removeContentTypeParser('application/json');
      scim.addContentTypeParser([SCIM_TYPE, 'application/json'], { parseAs: 'string' }, (_request, body, done) => {
        try {
          done(null, readJsonBody(String(body)));
        } catch (error) {
          const fault = error instanceof JsonBodyError ? error.fault : 'syntax';
          const scimType =
            fault === 'prototype-key' ? 'invalidPath' : fault === 'syntax' ? 'invalidSyntax' : 'invalidValue';
          done(new ScimError(400, (error as Error).message, scimType), undefined);
        }
      });
      scim.addHook('onRequest', authorize);
      scim.addHook('onSend', scimErrorShape);
      scim.addHook('onSend', async (_request, reply, payload) => {
        if (reply.statusCode < 400 && payload !== undefined && payload !== '') reply.type(SCIM_TYPE);
        return payload;
      });
      scim.setErrorHandler(handleScimError);
      // Any other address under /scim/v2 (the console's pages would otherwise answer it).
      scim.all('/*', { schema: { hide: true } }, async (request) => {
        throw new ScimError(404, `There is no SCIM endpoint ${request.method} ${request.url.split('?')[0]}`);
      });
      const run = <T>(work: (change: Change) => Promise<T>) => changes.run<T>({ system: SCIM_ACTOR }, work);

      scim.get(
        '/ServiceProviderConfig',
        { schema: { summary: 'SCIM: what this service provider supports', response: { 200: ScimDescription } } },
        async () => serviceProviderConfig(config.baseUrl),
      );
      scim.get(
        '/ResourceTypes',
        { schema: { summary: 'SCIM: the resource types (User, Group)', response: { 200: scimList(ScimDescription) } } },
        async () => listResponse(resourceTypes(config.baseUrl), {}),
      );
      scim.get(
        '/Schemas',
        { schema: { summary: 'SCIM: the schemas of users and groups', response: { 200: scimList(ScimDescription) } } },
        async () => listResponse(schemas(config.baseUrl), {}),
      );

      scim.get(
        '/Users',
        {
          schema: {
            summary: 'SCIM: list users, with filter, startIndex and count',
            querystring: ScimListQuery,
            response: { 200: scimList(ScimUser) },
          },
        },
        async (request) => listResponse(await users.list(db), request.query),
      );
      scim.get(
        '/Users/:id',
        { schema: { summary: 'SCIM: one user', params: Id, response: { 200: ScimUser } } },
        async (request) => users.get(db, request.params.id),
      );
      scim.post(
        '/Users',
        { schema: { summary: 'SCIM: provision a user', body: ScimUserInput, response: { 201: ScimUser } } },
        async (request, reply) => {
          const created = await run((change) => users.create(change, request.body));
          return reply.code(201).header('location', created.meta.location).send(created);
        },
      );
      scim.put(
        '/Users/:id',
        { schema: { summary: 'SCIM: replace a user', params: Id, body: ScimUserInput, response: { 200: ScimUser } } },
        async (request) =>
          changingUser(request, request.params.id, () =>
            run((change) => users.replace(change, request.params.id, request.body)),
          ),
      );
      scim.patch(
        '/Users/:id',
        {
          schema: {
            summary: 'SCIM: change a user by operations (active false deactivates)',
            params: Id,
            body: ScimPatchRequest,
            response: { 200: ScimUser },
          },
        },
        async (request) =>
          changingUser(request, request.params.id, () =>
            run((change) => users.patch(change, request.params.id, request.body)),
          ),
      );
      scim.delete(
        '/Users/:id',
        {
          schema: {
            summary: 'SCIM: deprovision a user (deactivated, sessions ended)',
            params: Id,
            response: { 204: NoContent },
          },
        },
        async (request, reply) => {
          await changingUser(request, request.params.id, () =>
            run((change) => users.remove(change, request.params.id)),
          );
          return reply.code(204).send();
        },
      );

      scim.get(
        '/Groups',
        {
          schema: {
            summary: 'SCIM: list groups, with filter, startIndex and count',
            querystring: ScimListQuery,
            response: { 200: scimList(ScimGroup) },
          },
        },
        async (request) =>
          listResponse(
            await groups.list(db, !/\bmembers\b/.test(request.query.excludedAttributes ?? '')),
            request.query,
          ),
      );
      scim.get(
        '/Groups/:id',
        {
          schema: {
            summary: 'SCIM: one group and its members',
            params: Id,
            querystring: ScimListQuery.pick({ excludedAttributes: true }),
            response: { 200: ScimGroup },
          },
        },
        async (request) =>
          groups.get(db, request.params.id, !/\bmembers\b/.test(request.query.excludedAttributes ?? '')),
      );
      scim.post(
        '/Groups',
        { schema: { summary: 'SCIM: provision a group', body: ScimGroupInput, response: { 201: ScimGroup } } },
        async (request, reply) => {
          const created = await run((change) => groups.create(change, request.body));
          return reply.code(201).header('location', created.meta.location).send(created);
        },
      );
      scim.put(
        '/Groups/:id',
        {
          schema: {
            summary: 'SCIM: replace a group and its members',
            params: Id,
            body: ScimGroupInput,
            response: { 200: ScimGroup },
          },
        },
        async (request) => run((change) => groups.replace(change, request.params.id, request.body)),
      );
      scim.patch(
        '/Groups/:id',
        {
          schema: {
            summary: 'SCIM: change a group by operations (members added and removed)',
            params: Id,
            body: ScimPatchRequest,
            response: { 200: ScimGroup },
          },
        },
        async (request) => run((change) => groups.patch(change, request.params.id, request.body)),
      );
      scim.delete(
        '/Groups/:id',
        { schema: { summary: 'SCIM: delete a group', params: Id, response: { 204: NoContent } } },
        async (request, reply) => {
          await run((change) => groups.remove(change, request.params.id));
          return reply.code(204).send();
        },
      );
    },
    { prefix: '/scim/v2' },
  );
}
