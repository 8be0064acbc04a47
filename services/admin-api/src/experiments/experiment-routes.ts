import { z } from 'zod';
import {
  CreateExperiment,
  Experiment,
  ExperimentList,
  ExperimentResults,
  ImpactVariantsView,
  PathName,
  StopExperiment,
  TrackedUnitsView,
} from '@bunting/contracts';
import { askView, Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { requireFeature } from '../feature-state/feature-lookup.ts';
import { experimentService } from './experiment-service.ts';

const FeatureParams = z.object({ projectId: PathName, featureName: PathName });
const ExperimentParams = FeatureParams.extend({ experimentId: z.string().uuid() });

/** Experiments on a flag's variants: start, list, read the results, stop with a decision. */
export function experimentRoutes(
  app: HttpServer,
  { db, changes, messaging }: Pick<AdminDeps, 'db' | 'changes' | 'messaging'>,
) {
  const base = '/api/admin/projects/:projectId/features/:featureName/experiments';
  const read = {
    variants: (query: z.infer<typeof ImpactVariantsView.request>) => askView(messaging, ImpactVariantsView, query),
    tracked: (query: z.infer<typeof TrackedUnitsView.request>) => askView(messaging, TrackedUnitsView, query),
  };

  app.get(
    base,
    {
      schema: {
        summary: "A flag's experiments, newest first",
        params: FeatureParams,
        response: { 200: ExperimentList },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      allowRead(request, { project: projectId });
      const feature = await requireFeature(db, projectId, featureName, { allowArchived: true });
      return { experiments: [...(await experimentService.list(db, feature))] };
    },
  );

  app.post(
    base,
    {
      schema: {
        summary: "Start an experiment on a flag's variants in one environment",
        params: FeatureParams,
        body: CreateExperiment,
        response: { 201: Experiment },
      },
    },
    async (request, reply) => {
      const { projectId, featureName } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      const experiment = await changes.run(principal, async (change) =>
        experimentService.start(
          change,
          await requireFeature(change.tx, projectId, featureName, { forWrite: true }),
          request.body,
        ),
      );
      return reply
        .code(201)
        .header('location', `/api/admin/projects/${projectId}/features/${featureName}/experiments/${experiment.id}`)
        .send(experiment);
    },
  );

  app.get(
    `${base}/:experimentId`,
    {
      schema: {
        summary: "An experiment's results: each variant against the control, the split check, over time",
        params: ExperimentParams,
        response: { 200: ExperimentResults },
      },
    },
    async (request) => {
      const { projectId, featureName, experimentId } = request.params;
      allowRead(request, { project: projectId });
      const feature = await requireFeature(db, projectId, featureName, { allowArchived: true });
      return experimentService.results(db, feature, experimentId, read);
    },
  );

  app.post(
    `${base}/:experimentId/stop`,
    {
      schema: {
        summary: 'Stop an experiment, recording the decision and the variant kept',
        params: ExperimentParams,
        body: StopExperiment,
        response: { 200: Experiment },
      },
    },
    async (request) => {
      const { projectId, featureName, experimentId } = request.params;
      const principal = allow(request, Permission.UPDATE_FEATURE, { project: projectId });
      return changes.run(principal, async (change) =>
        experimentService.stop(
          change,
          await requireFeature(change.tx, projectId, featureName, { allowArchived: true, forWrite: true }),
          experimentId,
          request.body,
        ),
      );
    },
  );
}
