import { z } from 'zod';
import { NoContent, Banner, Banners, CreateBanner } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { bannerService } from './banner-service.ts';

const IdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

/** Banners (Unleash Enterprise's API, in the open): every signed-in user may read them; admins change them. */
export function bannerRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/banners',
    { schema: { summary: 'List the banners', response: { 200: Banners } } },
    async (request) => {
      allowRead(request);
      return bannerService.list(db);
    },
  );

  app.post(
    '/api/admin/banners',
    { schema: { summary: 'Create a banner', body: CreateBanner, response: { 201: Banner } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      const banner = await changes.run(principal, (change) => bannerService.create(change, request.body));
      return reply.code(201).header('location', `/api/admin/banners/${banner.id}`).send(banner);
    },
  );

  app.put(
    '/api/admin/banners/:id',
    { schema: { summary: 'Change a banner', params: IdParams, body: CreateBanner, response: { 200: Banner } } },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) => bannerService.update(change, request.params.id, request.body));
    },
  );

  for (const [action, enabled, summary] of [
    ['on', true, 'Show a banner'],
    ['off', false, 'Hide a banner'],
  ] as const) {
    app.post(
      `/api/admin/banners/:id/${action}`,
      { schema: { summary, params: IdParams, response: { 200: Banner } } },
      async (request) => {
        const principal = allow(request, Permission.ADMIN);
        return changes.run(principal, (change) => bannerService.setEnabled(change, request.params.id, enabled));
      },
    );
  }

  app.delete(
    '/api/admin/banners/:id',
    { schema: { summary: 'Delete a banner', params: IdParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, (change) => bannerService.delete(change, request.params.id));
      return reply.code(200).send();
    },
  );
}
