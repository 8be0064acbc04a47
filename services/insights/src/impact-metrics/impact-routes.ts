import {
  ExternalImpactSource,
  ExternalImpactSourceCheck,
  ImpactLabelSelectors,
  ImpactMetricsData,
  ImpactMetricsDataQuery,
  ImpactMetricsMetadata,
  NoContent,
  RegisterImpactMetric,
  ValidateExternalImpactSource,
  impactSeriesName,
  parseImpactSeriesName,
  textAnswer,
  type ImpactMetricInfo,
} from '@bunting/contracts';
import {
  JsonBodyError,
  Permission,
  ValidationError,
  actorOf,
  readJsonBody,
  principalOf,
  requirePermission,
  type DatabasePool,
  type HttpServer,
  type Logger,
  type UnitsOfWork,
} from '@bunting/platform';
import { externalSource } from './external-source.ts';
import { loadExternalSource, publicExternalSource, saveExternalSource } from './external-source-settings.ts';
import { impactExposition } from './impact-exposition.ts';
import { queryImpactMetric } from './impact-query.ts';
import { impactStore } from './impact-store.ts';

export type ImpactDeps = {
  db: DatabasePool;
  changes: UnitsOfWork;
  log: Logger;
  externalUrlFromEnv: string | undefined;
};

/** The `labels` query parameter: a JSON object of label selectors. */
function selectorsOf(raw: string | undefined): ImpactLabelSelectors {
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = readJsonBody(raw);
  } catch (error) {
    throw ValidationError.field(
      'labels',
      error instanceof JsonBodyError && error.fault === 'prototype-key'
        ? 'must not name an object prototype'
        : 'is not JSON',
    );
  }
  const selectors = ImpactLabelSelectors.safeParse(parsed);
  if (!selectors.success) throw ValidationError.field('labels', 'must be an object of label names to lists of values');
  return selectors.data;
}

/** Impact metrics: their catalogue, queries over them (internal or an external Prometheus), and registering one. */
export function impactRoutes(app: HttpServer, deps: ImpactDeps) {
  const { db, changes } = deps;
  const source = async () => externalSource(await loadExternalSource(db, deps.externalUrlFromEnv));

  // Unleash's UI asks with the trailing slash; the server ignores trailing slashes, so both spellings reach it.
  app.get(
    '/api/admin/impact-metrics',
    {
      schema: {
        summary: 'An impact metric over a range: one line of its matching series, a point per step',
        querystring: ImpactMetricsDataQuery,
        response: { 200: ImpactMetricsData },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const { metricName, range, aggregationMode, source: from, mode } = request.query;
      const query = {
        metricName,
        range,
        aggregationMode,
        labels: selectorsOf(request.query.labels),
        withLabels: mode !== 'display',
      };
      if (from === 'external') return (await source()).query(query);
      return queryImpactMetric(db, query);
    },
  );

  app.get(
    '/api/admin/impact-metrics/metadata',
    {
      schema: {
        summary: 'The impact metrics known: name, display name, help, type and source',
        response: { 200: ImpactMetricsMetadata },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.READ);
      const internal: ImpactMetricInfo[] = (await impactStore.catalogue(db)).map((metric) => ({
        name: metric.name,
        displayName: parseImpactSeriesName(metric.name)?.displayName ?? metric.name,
        help: metric.help,
        type: metric.type,
        source: 'internal',
      }));
      // An external source that cannot be read now leaves its metrics out; the internal ones are answered regardless.
      const external = await source();
      const names = external.configured
        ? await external.metricNames().catch((error: unknown) => {
            deps.log.warn(
              { err: error },
              'external impact metrics source unavailable; listing the internal metrics only',
            );
            return [];
          })
        : [];
      const externals: ImpactMetricInfo[] = names.map((name) => {
        const parsed = parseImpactSeriesName(name);
        return {
          name,
          displayName: parsed?.displayName ?? name,
          help: '',
          type: parsed?.type ?? 'unknown',
          source: 'external',
        };
      });
      return { metrics: [...internal, ...externals] };
    },
  );

  app.post(
    '/api/admin/impact-metrics/register',
    {
      schema: {
        summary: 'Register an impact metric before any SDK sends it, at zero',
        body: RegisterImpactMetric,
        response: { 200: NoContent, 201: NoContent },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      requirePermission(principal, Permission.CREATE_FEATURE);
      const { type, help = '' } = request.body;
      const name = impactSeriesName(type, request.body.name.replace(/:/g, '_'));
      const created = await changes.run(actorOf(principal), async (change) => {
        const fresh = await impactStore.register(change.tx, { name, type, help });
        if (fresh)
          change.emit({
            type: 'setting-created',
            data: { id: 'impact-metric', name, displayName: request.body.name, type, help },
          });
        return fresh;
      });
      // Where the metric is read: its query address.
      return reply
        .code(created ? 201 : 200)
        .header('location', `/api/admin/impact-metrics?metricName=${encodeURIComponent(name)}&range=hour`)
        .send();
    },
  );

  app.get(
    '/api/admin/impact-metrics/external-source',
    {
      schema: {
        summary: 'The external Prometheus-compatible source of impact metrics (its password masked)',
        response: { 200: ExternalImpactSource },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.ADMIN);
      return publicExternalSource(await loadExternalSource(db, deps.externalUrlFromEnv));
    },
  );

  app.post(
    '/api/admin/impact-metrics/external-source',
    {
      schema: {
        summary: 'Set or turn off the external Prometheus-compatible source of impact metrics',
        body: ExternalImpactSource,
        response: { 200: ExternalImpactSource },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      requirePermission(principal, Permission.ADMIN);
      if (request.body.enabled && !request.body.url)
        throw ValidationError.field('url', 'is required to turn the external source on');
      return changes.run(actorOf(principal), async (change) => {
        const before = publicExternalSource(await loadExternalSource(change.tx, deps.externalUrlFromEnv));
        const saved = publicExternalSource(await saveExternalSource(change.tx, request.body, deps.externalUrlFromEnv));
        change.emit({
          type: 'setting-updated',
          data: { id: 'impact-metrics-external-source', ...saved },
          preData: { id: 'impact-metrics-external-source', ...before },
        });
        return saved;
      });
    },
  );

  app.post(
    '/api/admin/impact-metrics/external-source/validate',
    {
      schema: {
        summary: 'Check an external source: the metric names it has, or why it cannot be read',
        body: ValidateExternalImpactSource,
        response: { 200: ExternalImpactSourceCheck },
      },
    },
    async (request) => {
      requirePermission(principalOf(request), Permission.ADMIN);
      try {
        return { metrics: await externalSource({ enabled: true, url: request.body.url }).metricNames() };
      } catch (error) {
        return { metrics: [], error: (error as Error).message };
      }
    },
  );
}

/** The ingested impact metrics for a user's Prometheus to scrape (Unleash's address for them); open, like /internal-backstage/prometheus. */
export function impactExpositionRoute(app: HttpServer, db: DatabasePool) {
  app.get(
    '/internal-backstage/impact/metrics',
    {
      schema: {
        summary: 'The impact metrics SDKs sent, in Prometheus text format',
        response: { 200: textAnswer('text/plain', "Prometheus' text exposition format") },
      },
    },
    async (_request, reply) => {
      const [series, registered] = await Promise.all([
        impactStore.exposed(db),
        impactStore.registeredWithoutSeries(db),
      ]);
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(impactExposition(series, registered));
    },
  );
}
