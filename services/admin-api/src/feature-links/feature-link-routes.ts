import { z } from 'zod';
import { NoContent, FeatureLinkInput } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { requireFeature } from '../feature-state/feature-lookup.ts';
import { featureLinkService } from './feature-link-service.ts';

const FeatureParams = z.object({ projectId: z.string().min(1).max(255), featureName: z.string().min(1).max(255) });
const LinkParams = FeatureParams.extend({ linkId: z.string().min(1).max(100) });

/** Unleash 8's flag links: add, change and remove answer 204; the links are read with the flag. */
export function featureLinkRoutes(app: HttpServer, { changes }: Pick<AdminDeps, 'changes'>) {
  const base = '/api/admin/projects/:projectId/features/:featureName/link';

  app.post(
    base,
    {
      schema: {
        summary: 'Add a link to a flag',
        params: FeatureParams,
        body: FeatureLinkInput,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      await changes.run(principal, async (change) => {
        const feature = await requireFeature(change.tx, projectId, featureName, { forWrite: true });
        await featureLinkService.add(change, feature, request.body);
      });
      return reply.code(204).send();
    },
  );

  app.put(
    `${base}/:linkId`,
    {
      schema: {
        summary: "Change a flag's link",
        params: LinkParams,
        body: FeatureLinkInput,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName, linkId } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      await changes.run(principal, async (change) => {
        const feature = await requireFeature(change.tx, projectId, featureName, { forWrite: true });
        await featureLinkService.update(change, feature, linkId, request.body);
      });
      return reply.code(204).send();
    },
  );

  app.delete(
    `${base}/:linkId`,
    { schema: { summary: 'Remove a link from a flag', params: LinkParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const { projectId, featureName, linkId } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      await changes.run(principal, async (change) => {
        const feature = await requireFeature(change.tx, projectId, featureName, { forWrite: true });
        await featureLinkService.remove(change, feature, linkId);
      });
      return reply.code(204).send();
    },
  );
}
