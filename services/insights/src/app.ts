import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DomainEvent, MetricsMessage } from '@bunting/contracts';
import {
  authenticate,
  createOutbox,
  createUnitOfWork,
  migrate,
  runDurableConsumer,
  startRelay,
  type ServicePlugin,
  type ServiceInfrastructure,
  inScope,
} from '@bunting/platform';
import { adminClient } from './admin-client.ts';
import { applicationAnnouncer } from './applications/application-events.ts';
import { applicationRoutes } from './applications/application-routes.ts';
import { recordEvent } from './facts/event-facts.ts';
import { impactChartRoutes } from './impact-charts/impact-chart-routes.ts';
import { impactDropCounter } from './impact-metrics/impact-drops.ts';
import { readImpactLimits } from './impact-metrics/impact-limits.ts';
import { recordImpactMetrics } from './impact-metrics/impact-recording.ts';
import { startImpactRetention } from './impact-metrics/impact-retention.ts';
import { impactExpositionRoute, impactRoutes } from './impact-metrics/impact-routes.ts';
import { answerImpactValues } from './impact-metrics/impact-value-view.ts';
import { answerImpactArms } from './impact-metrics/impact-arms-view.ts';
import { projectRoutes } from './projects/project-routes.ts';
import { featureMetricRoutes } from './sdk-metrics/feature-metric-routes.ts';
import { createKnownFlags } from './sdk-metrics/known-flags.ts';
import { recordMetrics, recordMetricsRun } from './sdk-metrics/metric-recording.ts';
import { readRetentionPolicy } from './sdk-metrics/metric-retention.ts';
import { startProcessedMetricsPruner } from './sdk-metrics/processed-metrics.ts';
import { startSnapshotTimer } from './trends/snapshot-timer.ts';
import { trendRoutes } from './trends/trend-routes.ts';
import { readTrackingLimits } from './tracked-units/tracking-limits.ts';
import { recordTrackedUnits } from './tracked-units/tracked-unit-recording.ts';
import { startTrackedUnitRetention } from './tracked-units/tracked-unit-retention.ts';
import { answerTrackedUnits } from './tracked-units/tracked-units-view.ts';

export const INSIGHTS_SCHEMA = 'insights';
const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * insights: keeps what the reports need of the event and metrics streams in schema "insights", takes a daily
 * snapshot of admin-api's inventory for the trends, and serves the health report, instance statistics and
 * the executive dashboard. Replicas share the durable consumers.
 */
export function insights(infrastructure: ServiceInfrastructure<'db' | 'messaging' | 'verifier'>): ServicePlugin {
  return async (app) => {
    const { db, messaging, log, verifier } = infrastructure;
    const retention = readRetentionPolicy();
    const impactLimits = readImpactLimits(infrastructure.env);
    const trackingLimits = readTrackingLimits(infrastructure.env);
    await migrate({
      databaseUrl: infrastructure.config.databaseUrl,
      schema: INSIGHTS_SCHEMA,
      dir: migrationsDir,
      log,
      outbox: true,
    });
    const admin = adminClient(messaging);
    const outbox = createOutbox(INSIGHTS_SCHEMA);
    const relay = startRelay({
      schema: INSIGHTS_SCHEMA,
      db,
      databaseUrl: infrastructure.config.databaseUrl,
      messaging,
      log,
      metrics: infrastructure.metrics,
    });
    const announce = applicationAnnouncer(outbox, messaging);
    const knownFlags = createKnownFlags(admin, log);
    const changes = createUnitOfWork({ db, outbox, messaging });
    const impactDrop = impactDropCounter(infrastructure.metrics, 'insights');
    const recordImpact = (
      tx: Parameters<typeof recordImpactMetrics>[0],
      messages: Parameters<typeof recordImpactMetrics>[1],
    ) =>
      recordImpactMetrics(tx, messages, impactLimits, impactDrop).then(() =>
        recordTrackedUnits(tx, messages, trackingLimits, impactDrop),
      );

    const events = runDurableConsumer({
      messaging,
      metrics: infrastructure.metrics,
      stream: messaging.names.eventsStream,
      durable: messaging.names.consumer('insights'),
      filterSubject: messaging.names.eventsSubjects,
      schema: DomainEvent,
      handle: (event) => recordEvent(db, event),
    });
    const metricsConsumer = {
      messaging,
      stream: messaging.names.metricsStream,
      durable: messaging.names.consumer('insights_metrics'),
    };
    const metrics = runDurableConsumer({
      ...metricsConsumer,
      metrics: infrastructure.metrics,
      filterSubject: messaging.names.metricsSubjects,
      schema: MetricsMessage,
      handle: (message, raw) =>
        recordMetrics(db, message, raw.seq, announce, (names) => knownFlags.unknownAmong(names), recordImpact),
      // A fleet posts hundreds of times a second: what has arrived is recorded in one transaction.
      handleRun: (run) =>
        recordMetricsRun(
          db,
          run.map(({ value, raw }) => ({ message: value, sequence: raw.seq })),
          announce,
          (names) => knownFlags.unknownAmong(names),
          recordImpact,
        ),
    });
    const snapshots = startSnapshotTimer({ db, admin, log, retention });
    const pruner = startProcessedMetricsPruner(db, metricsConsumer, log);
    const impactRetention = startImpactRetention(db, impactLimits, log);
    const impactValues = answerImpactValues({
      db,
      messaging,
      externalUrlFromEnv: infrastructure.env.EXTERNAL_PROMETHEUS_IMPACT_METRICS_API,
    });
    const impactArms = answerImpactArms({
      db,
      messaging,
      externalUrlFromEnv: infrastructure.env.EXTERNAL_PROMETHEUS_IMPACT_METRICS_API,
    });
    const trackedUnits = answerTrackedUnits({ db, messaging });
    const trackedRetention = startTrackedUnitRetention(db, trackingLimits, log);

    await inScope(app, (server) => {
      server.addHook('onRequest', async (request) => {
        await authenticate(verifier, request);
      });
      projectRoutes(server, { db, admin });
      trendRoutes(server, { db, admin, version });
      applicationRoutes(server, db, announce);
      featureMetricRoutes(server, { db, admin });
      impactRoutes(server, {
        db,
        changes,
        log,
        externalUrlFromEnv: infrastructure.env.EXTERNAL_PROMETHEUS_IMPACT_METRICS_API,
      });
      impactChartRoutes(server, { db, changes, admin });
    });
    impactExpositionRoute(app, db);

    app.addHook('onClose', async () => {
      impactValues.stop();
      impactArms.stop();
      trackedUnits.stop();
      await Promise.all([
        trackedRetention.stop(),
        snapshots.stop(),
        events.stop(),
        metrics.stop(),
        pruner.stop(),
        impactRetention.stop(),
      ]);
      await relay.stop();
    });
  };
}
