import { z } from 'zod';
import { NoContent, PathName } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { projectService } from './project-service.ts';

const ProjectParams = z.object({ projectId: PathName });

/** Marking a project as favourite, for the caller only. */
export function projectFavoriteRoutes(app: HttpServer, { changes }: Pick<AdminDeps, 'changes'>) {
  for (const [method, favorite, summary] of [
    ['post', true, 'Mark a project as a favourite of the caller'],
    ['delete', false, 'Unmark a project as a favourite of the caller'],
  ] as const) {
    app[method](
      '/api/admin/projects/:projectId/favorites',
      { schema: { summary, params: ProjectParams, response: { 200: NoContent } } },
      async (request, reply) => {
        const principal = allowRead(request, { project: request.params.projectId });
        await changes.run(principal, (change) =>
          projectService.setFavorite(change, principal.key, request.params.projectId, favorite),
        );
        return reply.code(200).send();
      },
    );
  }
}
