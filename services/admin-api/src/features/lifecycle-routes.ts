import { z } from 'zod';
import {
  FeatureLifecycleStages,
  LifecycleCounts,
  NoContent,
  FeatureLifecycleCompleted,
  PathName,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { requireFeature } from '../feature-state/feature-lookup.ts';
import { lifecycleService } from '../feature-state/lifecycle.ts';

const FeatureParams = z.object({ projectId: PathName, featureName: PathName });

/** Where a flag is in its life (initial, pre-live, live, completed, archived) and the stages it went through. */
export function lifecycleRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/projects/:projectId/features/:featureName/lifecycle',
    {
      schema: {
        summary: "A flag's lifecycle stages and when it entered each",
        params: FeatureParams,
        response: { 200: FeatureLifecycleStages },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      allowRead(request, { project: projectId });
      await requireFeature(db, projectId, featureName, { allowArchived: true });
      return lifecycleService.history(db, featureName);
    },
  );

  app.post(
    '/api/admin/projects/:projectId/features/:featureName/lifecycle/complete',
    {
      schema: {
        summary: "Mark a flag's work as complete (kept or discarded)",
        params: FeatureParams,
        body: FeatureLifecycleCompleted,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      await changes.run(principal, async (change) =>
        lifecycleService.complete(
          change,
          await requireFeature(change.tx, projectId, featureName, { allowArchived: true, forWrite: true }),
          request.body,
        ),
      );
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/features/:featureName/lifecycle/uncomplete',
    { schema: { summary: "Take back a flag's completion", params: FeatureParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      await changes.run(principal, async (change) =>
        lifecycleService.uncomplete(
          change,
          await requireFeature(change.tx, projectId, featureName, { forWrite: true }),
        ),
      );
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/admin/lifecycle/count',
    { schema: { summary: 'How many flags are in each lifecycle stage', response: { 200: LifecycleCounts } } },
    async (request) => {
      allowRead(request);
      return lifecycleService.count(db);
    },
  );
}
