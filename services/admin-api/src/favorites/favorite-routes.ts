import { z } from 'zod';
import { NoContent, PathName } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { featureFavoriteService } from './feature-favorite-service.ts';

const FeatureParams = z.object({ projectId: PathName, featureName: PathName });

/** Marking a flag as favourite, for the caller only. */
export function favoriteRoutes(app: HttpServer, { changes }: Pick<AdminDeps, 'changes'>) {
  for (const [method, favorite, summary] of [
    ['post', true, 'Mark a flag as a favourite of the caller'],
    ['delete', false, 'Unmark a flag as a favourite of the caller'],
  ] as const) {
    app[method](
      '/api/admin/projects/:projectId/features/:featureName/favorites',
      { schema: { summary, params: FeatureParams, response: { 200: NoContent } } },
      async (request, reply) => {
        const principal = allowRead(request, { project: request.params.projectId });
        await changes.run(principal, (change) =>
          featureFavoriteService.set(
            change,
            principal.key,
            request.params.projectId,
            request.params.featureName,
            favorite,
          ),
        );
        return reply.code(200).send();
      },
    );
  }
}
