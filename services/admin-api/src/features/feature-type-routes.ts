import { z } from 'zod';
import { FeatureTypeList, FeatureTypeView, PathName } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { featureTypeService } from './feature-type-service.ts';

/** Flag types and the lifetime after which a flag of each type counts as potentially stale. */
export function featureTypeRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/feature-types',
    { schema: { summary: 'List the flag types and their expected lifetimes', response: { 200: FeatureTypeList } } },
    async (request) => {
      allowRead(request);
      return featureTypeService.list(db);
    },
  );

  app.put(
    '/api/admin/feature-types/:id/lifetime',
    {
      schema: {
        summary: 'Change how long a flag type is expected to live',
        params: z.object({ id: PathName }),
        body: z.object({ lifetimeDays: z.number().int().min(0).max(2_147_483_647).nullable() }),
        response: { 200: FeatureTypeView },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) =>
        featureTypeService.setLifetime(change, request.params.id, request.body.lifetimeDays),
      );
    },
  );
}
