import { z } from 'zod';
import { NoContent, CreatePat, NumericId, Pat, Pats } from '@bunting/contracts';
import { NoAccessError, principalOf, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { patService } from './pat-service.ts';
import { noteWho } from '../access-history/access-hook.ts';

const IdParams = z.object({ id: NumericId });

/** Personal access tokens of the calling user, and service accounts with their tokens. */
export function patRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  const ownUserId = (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    // Tokens belong to a person: an API token has no user to own one.
    if (principal.userId === null || principal.kind === 'api-token')
      throw new NoAccessError('CREATE_PERSONAL_ACCESS_TOKEN');
    return principal;
  };

  app.get(
    '/api/admin/user/tokens',
    { schema: { summary: "List the caller's personal access tokens", response: { 200: Pats } } },
    async (request) => patService.list(db, ownUserId(request).userId!),
  );

  app.post(
    '/api/admin/user/tokens',
    {
      schema: { summary: 'Create a personal access token for the caller', body: CreatePat, response: { 201: Pat } },
      config: { access: { method: 'personal-access-token', action: 'created' } },
    },
    async (request, reply) => {
      noteWho(request, { detail: request.body.description });
      const principal = ownUserId(request);
      const created = await changes.run(principal, (change) =>
        patService.create(change, principal.userId!, request.body),
      );
      return reply.code(201).header('location', `/api/admin/user/tokens/${created.id}`).send(created);
    },
  );

  app.delete(
    '/api/admin/user/tokens/:id',
    {
      schema: {
        summary: "Revoke one of the caller's personal access tokens",
        params: IdParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = ownUserId(request);
      await changes.run(principal, (change) => patService.delete(change, principal.userId!, request.params.id));
      return reply.code(200).send();
    },
  );
}
