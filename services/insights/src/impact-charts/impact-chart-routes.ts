import { z } from 'zod';
import {
  ImpactChart,
  ImpactChartInput,
  ImpactChartList,
  NoContent,
  PathName,
  parseImpactSeriesName,
} from '@bunting/contracts';
import {
  NotFoundError,
  Permission,
  ValidationError,
  actorOf,
  principalOf,
  requirePermission,
  ulid,
  type DatabasePool,
  type HttpServer,
  type UnitsOfWork,
} from '@bunting/platform';
import type { AdminClient } from '../admin-client.ts';
import { IMPACT_WINDOWS } from '../impact-metrics/impact-windows.ts';
import { impactChartStore, type StoredChart } from './impact-chart-store.ts';

/** A flag holds at most this many charts. */
const MAX_CHARTS = 50;

const FeatureParams = z.object({ projectId: PathName, featureName: PathName });

/** A chart as answered: its display name and step worked out, and whether it is changed here or through a safeguard. */
const shown = (chart: StoredChart): z.infer<typeof ImpactChart> => ({
  ...chart,
  displayName: parseImpactSeriesName(chart.metricName)?.displayName ?? chart.metricName,
  mode: 'write',
  step: IMPACT_WINDOWS[chart.timeRange].step,
});

/**
 * The charts of impact metrics on a flag's page (Unleash's impact metrics configuration). The spec's closed event
 * list has no chart events, so a change is recorded as feature-metadata-updated on the flag, with Unleash's event
 * name (impact-metric-created, -updated, -deleted) and the chart in its data.
 */
export function impactChartRoutes(
  app: HttpServer,
  { db, changes, admin }: { db: DatabasePool; changes: UnitsOfWork; admin: Pick<AdminClient, 'feature'> },
) {
  const base = '/api/admin/projects/:projectId/features/:featureName/impact-metrics/config';
  const requireFlag = async (project: string, feature: string) => {
    const found = await admin.feature(feature);
    if (!found || found.project !== project)
      throw new NotFoundError(`Could not find feature flag ${feature} in project ${project}`);
  };

  app.get(
    base,
    {
      schema: {
        summary: "The impact metric charts a flag's page shows",
        params: FeatureParams,
        response: { 200: ImpactChartList },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      requirePermission(principalOf(request), Permission.READ, { project: projectId });
      await requireFlag(projectId, featureName);
      return { configs: (await impactChartStore.ofFeature(db, projectId, featureName)).map(shown) };
    },
  );

  app.post(
    base,
    {
      schema: {
        summary: "Add a chart of an impact metric to a flag's page, or change one (by its id)",
        params: FeatureParams,
        body: ImpactChartInput,
        response: { 200: ImpactChart },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      const principal = principalOf(request);
      requirePermission(principal, Permission.UPDATE_FEATURE, { project: projectId });
      await requireFlag(projectId, featureName);
      return changes.run(actorOf(principal), async (change) => {
        const before = request.body.id
          ? await impactChartStore.get(change.tx, projectId, featureName, request.body.id)
          : null;
        if (!before && (await impactChartStore.count(change.tx, projectId, featureName)) >= MAX_CHARTS) {
          throw ValidationError.field('metricName', `a flag holds at most ${MAX_CHARTS} charts`);
        }
        const chart: StoredChart = { ...request.body, id: request.body.id ?? ulid() };
        await impactChartStore.save(change.tx, projectId, featureName, chart);
        change.emit({
          type: 'feature-metadata-updated',
          project: projectId,
          featureName,
          data: {
            name: featureName,
            unleashEventType: before ? 'impact-metric-updated' : 'impact-metric-created',
            impactMetric: chart,
          },
          preData: before ? { name: featureName, impactMetric: before } : null,
        });
        return shown(chart);
      });
    },
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        summary: "Remove a chart from a flag's page",
        params: FeatureParams.extend({ id: z.string().min(1).max(100) }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, featureName, id } = request.params;
      const principal = principalOf(request);
      requirePermission(principal, Permission.UPDATE_FEATURE, { project: projectId });
      await requireFlag(projectId, featureName);
      await changes.run(actorOf(principal), async (change) => {
        const before = await impactChartStore.get(change.tx, projectId, featureName, id);
        if (!before) throw new NotFoundError(`Could not find chart ${id} of feature flag ${featureName}`);
        await impactChartStore.delete(change.tx, projectId, featureName, id);
        change.emit({
          type: 'feature-metadata-updated',
          project: projectId,
          featureName,
          data: { name: featureName, unleashEventType: 'impact-metric-deleted' },
          preData: { name: featureName, impactMetric: before },
        });
      });
      return reply.code(200).send();
    },
  );
}
