import { z } from 'zod';
import { AddonList, AddonView, AddonDeliveries, NoContent, AddonInput, NumericId } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { addonService, addonView, requireAddon } from './addon-service.ts';
import { addonStore } from './addon-store.ts';
import { PROVIDERS } from './addon-providers.ts';

const IdParams = z.object({ id: NumericId });
/** Integrations (Unleash's addons). Changing them is for admins, as they can send events anywhere. */
export function addonRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/addons',
    { schema: { summary: 'List the integrations and the providers they can use', response: { 200: AddonList } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return {
        addons: (await addonStore.list(db)).map(addonView),
        providers: Object.values(PROVIDERS).map((provider) => provider.definition),
      };
    },
  );

  app.post(
    '/api/admin/addons',
    { schema: { summary: 'Create an integration', body: AddonInput, response: { 200: AddonView } } },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) => addonService.create(change, request.body));
    },
  );

  app.get(
    '/api/admin/addons/:id',
    { schema: { summary: 'Get one integration (secrets masked)', params: IdParams, response: { 200: AddonView } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return addonView(await requireAddon(db, request.params.id));
    },
  );

  app.put(
    '/api/admin/addons/:id',
    { schema: { summary: 'Change an integration', params: IdParams, body: AddonInput, response: { 200: AddonView } } },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) => addonService.update(change, request.params.id, request.body));
    },
  );

  app.delete(
    '/api/admin/addons/:id',
    { schema: { summary: 'Delete an integration', params: IdParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, (change) => addonService.delete(change, request.params.id));
      return reply.code(200).send();
    },
  );

  // The latest deliveries of one addon, newest first.
  app.get(
    '/api/admin/addons/:id/events',
    {
      schema: {
        summary: "An integration's latest deliveries and how they went",
        params: IdParams,
        response: { 200: AddonDeliveries },
      },
    },
    async (request) => {
      allow(request, Permission.ADMIN);
      await requireAddon(db, request.params.id);
      return { integrationEvents: await addonStore.deliveries(db, request.params.id) };
    },
  );
}
