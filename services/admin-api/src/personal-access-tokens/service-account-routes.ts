import { z } from 'zod';
import {
  ServiceAccountList,
  NoContent,
  CreatePat,
  CreateServiceAccount,
  NumericId,
  Pat,
  Pats,
  UpdateServiceAccount,
  User,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { roleReadModel } from '../roles/role-read-model.ts';
import { requireUser, userReadModel, userView } from '../users/user-read-model.ts';
import { userService } from '../users/user-service.ts';
import { patService } from './pat-service.ts';

const IdParams = z.object({ id: NumericId });

/** Service accounts (users that are not people) and their tokens, for admins. */
export function serviceAccountRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/service-account',
    { schema: { summary: 'List the service accounts', response: { 200: ServiceAccountList } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      const [serviceAccounts, rootRoles] = await Promise.all([
        userReadModel.serviceAccounts(db),
        roleReadModel.rootRoles(db),
      ]);
      return { serviceAccounts, rootRoles };
    },
  );

  app.post(
    '/api/admin/service-account',
    { schema: { summary: 'Create a service account', body: CreateServiceAccount, response: { 201: User } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      const created = await changes.run(principal, (change) =>
        userService.create(change, { ...request.body, isService: true }),
      );
      return reply.code(201).header('location', `/api/admin/service-account/${created.id}`).send(userView(created));
    },
  );

  app.put(
    '/api/admin/service-account/:id',
    {
      schema: {
        summary: "Change a service account's name or root role",
        params: IdParams,
        body: UpdateServiceAccount,
        response: { 200: User },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) =>
        userService.update(change, request.params.id, request.body, { serviceAccount: true }),
      );
    },
  );

  app.delete(
    '/api/admin/service-account/:id',
    { schema: { summary: 'Delete a service account and its tokens', params: IdParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, (change) => userService.delete(change, request.params.id, { serviceAccount: true }));
      return reply.code(200).send();
    },
  );

  // The tokens of a service account; 404 for an unknown account.
  app.get(
    '/api/admin/service-account/:id/token',
    { schema: { summary: "List a service account's tokens", params: IdParams, response: { 200: Pats } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      await requireUser(db, request.params.id, { serviceAccount: true });
      return patService.list(db, request.params.id);
    },
  );

  app.post(
    '/api/admin/service-account/:id/token',
    {
      schema: {
        summary: 'Create a token for a service account',
        params: IdParams,
        body: CreatePat,
        response: { 201: Pat },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      const created = await changes.run(principal, async (change) => {
        await requireUser(change.tx, request.params.id, { serviceAccount: true });
        return patService.create(change, request.params.id, request.body);
      });
      return reply
        .code(201)
        .header('location', `/api/admin/service-account/${request.params.id}/token/${created.id}`)
        .send(created);
    },
  );

  app.delete(
    '/api/admin/service-account/:id/token/:tokenId',
    {
      schema: {
        summary: "Revoke a service account's token",
        params: IdParams.extend({ tokenId: NumericId }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, async (change) => {
        await requireUser(change.tx, request.params.id, { serviceAccount: true });
        await patService.delete(change, request.params.id, request.params.tokenId);
      });
      return reply.code(200).send();
    },
  );
}
