import { z } from 'zod';
import { AddonInput, NumericId } from '@bunting/contracts';
import { Permission, sql, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allow } from '../access/guard.ts';
import { addonService, addonView, requireAddon } from './addon-service.ts';
import { addonStore } from './addon-store.ts';
import { WEBHOOK_PROVIDER } from './addon-providers.ts';

const IdParams = z.object({ id: NumericId });
const Delivery = z.object({
  id: z.string(), integrationId: z.number(), createdAt: z.string(), state: z.string(), stateDetails: z.string(),
  event: z.record(z.string(), z.unknown()), details: z.record(z.string(), z.unknown()),
});

/** Integrations (Unleash's addons). Changing them is for admins, as they can send events anywhere. */
export function addonRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get('/api/admin/addons', async (request) => {
    allow(request, Permission.ADMIN);
    return { addons: (await addonStore.list(db)).map(addonView), providers: [WEBHOOK_PROVIDER] };
  });

  app.post('/api/admin/addons', { schema: { body: AddonInput } }, async (request) => {
    const actor = actorFor(request, Permission.ADMIN);
    return changes.run(actor, (change) => addonService.create(change, request.body));
  });

  app.get('/api/admin/addons/:id', { schema: { params: IdParams } }, async (request) => {
    allow(request, Permission.ADMIN);
    return addonView(await requireAddon(db, request.params.id));
  });

  app.put('/api/admin/addons/:id', { schema: { params: IdParams, body: AddonInput } }, async (request) => {
    const actor = actorFor(request, Permission.ADMIN);
    return changes.run(actor, (change) => addonService.update(change, request.params.id, request.body));
  });

  app.delete('/api/admin/addons/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const actor = actorFor(request, Permission.ADMIN);
    await changes.run(actor, (change) => addonService.delete(change, request.params.id));
    return reply.code(200).send();
  });

  // The latest deliveries of one addon, newest first.
  app.get('/api/admin/addons/:id/events', { schema: { params: IdParams } }, async (request) => {
    allow(request, Permission.ADMIN);
    await requireAddon(db, request.params.id);
    const integrationEvents = await db.any(sql.type(Delivery)`
      select id::text, addon_id as "integrationId", created_at as "createdAt", state, state_details as "stateDetails", event, details
      from admin.addon_deliveries where addon_id = ${request.params.id} order by id desc limit 100`);
    return { integrationEvents };
  });
}
