import { z } from 'zod';
import { CreatePat, CreateServiceAccount, NumericId, Pat, Pats, UpdateServiceAccount, User } from '@bunting/contracts';
import { NoAccessError, Permission, principalOf, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allow } from '../access/guard.ts';
import { actorOf } from '../events/changes.ts';
import { roleStore, roleView, ROOT_ROLE_TYPES } from '../roles/role-store.ts';
import { requireUser, userService } from '../users/user-service.ts';
import { userStore, userView } from '../users/user-store.ts';
import { patService } from './pat-service.ts';

const IdParams = z.object({ id: NumericId });

/** Personal access tokens of the calling user, and service accounts with their tokens. */
export function patRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  const ownUserId = (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    // Tokens belong to a person: an API token has no user to own one.
    if (principal.userId === null || principal.kind === 'api-token') throw new NoAccessError('CREATE_PERSONAL_ACCESS_TOKEN');
    return principal;
  };

  app.get('/api/admin/user/tokens', { schema: { response: { 200: Pats } } }, async (request) => patService.list(db, ownUserId(request).userId!));

  app.post('/api/admin/user/tokens', { schema: { body: CreatePat, response: { 201: Pat } } }, async (request, reply) => {
    const principal = ownUserId(request);
    const created = await changes.run(actorOf(principal), (change) => patService.create(change, principal.userId!, request.body));
    return reply.code(201).send(created);
  });

  app.delete('/api/admin/user/tokens/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const principal = ownUserId(request);
    await changes.run(actorOf(principal), (change) => patService.delete(change, principal.userId!, request.params.id));
    return reply.code(200).send();
  });

  app.get('/api/admin/service-account', async (request) => {
    allow(request, Permission.ADMIN);
    const [accounts, rootRoles] = await Promise.all([userStore.list(db, true), roleStore.list(db, ROOT_ROLE_TYPES)]);
    return { serviceAccounts: accounts.map(userView), rootRoles: rootRoles.map(roleView) };
  });

  app.post('/api/admin/service-account', { schema: { body: CreateServiceAccount, response: { 201: User } } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    const created = await changes.run(actor, (change) => userService.create(change, { ...request.body, isService: true }));
    return reply.code(201).send(userView(created));
  });

  app.put('/api/admin/service-account/:id', { schema: { params: IdParams, body: UpdateServiceAccount, response: { 200: User } } }, async (request) => {
    const actor = actorFor(request, Permission.ADMIN);
    return changes.run(actor, (change) => userService.update(change, request.params.id, request.body, { serviceAccount: true }));
  });

  app.delete('/api/admin/service-account/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    await changes.run(actor, (change) => userService.delete(change, request.params.id, { serviceAccount: true }));
    return reply.code(200).send();
  });

  // Seed endpoint 15: the tokens of a service account; 404 for an unknown account.
  app.get('/api/admin/service-account/:id/token', { schema: { params: IdParams, response: { 200: Pats } } }, async (request) => {
    allow(request, Permission.ADMIN);
    await requireUser(db, request.params.id, { serviceAccount: true });
    return patService.list(db, request.params.id);
  });

  app.post('/api/admin/service-account/:id/token', { schema: { params: IdParams, body: CreatePat, response: { 201: Pat } } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    const created = await changes.run(actor, async (change) => {
      await requireUser(change.tx, request.params.id, { serviceAccount: true });
      return patService.create(change, request.params.id, request.body);
    });
    return reply.code(201).send(created);
  });

  app.delete('/api/admin/service-account/:id/token/:tokenId', { schema: { params: IdParams.extend({ tokenId: NumericId }) } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    await changes.run(actor, async (change) => {
      await requireUser(change.tx, request.params.id, { serviceAccount: true });
      await patService.delete(change, request.params.id, request.params.tokenId);
    });
    return reply.code(200).send();
  });
}
