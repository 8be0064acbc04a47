import { Counter } from 'prom-client';
import type { Metrics } from '@bunting/platform';
import type { SnapshotStore } from './snapshots/snapshot-source.ts';

/** Answers the SDK edge gave from memory, by API. Plain numbers on the hot path, read into Prometheus when scraped. */
export type EdgeCounts = { frontend: number; client: number; delta: number; ofrep: number; streamsOpen: () => number };

export function createEdgeCounts(): EdgeCounts {
  return { frontend: 0, client: 0, delta: 0, ofrep: 0, streamsOpen: () => 0 };
}

/**
 * What the SDK edge reports: snapshots held (revision, age, compile time, time to tell the open streams) and
 * installed, open streams, answers served.
 */
export function registerEdgeMetrics(
  metrics: Metrics,
  snapshots: Pick<SnapshotStore, 'held' | 'installs'>,
  counts: EdgeCounts,
): () => void {
  const held = () => snapshots.held();
  const removals = [
    metrics
      .sampledGauge('bunting_snapshot_revision', 'Revision of the snapshot this replica serves, per environment', [
        'environment',
      ])
      .addSource(() => held().map((entry) => ({ labels: { environment: entry.environment }, value: entry.revision }))),
    metrics
      .sampledGauge('bunting_snapshot_age_seconds', 'Time since this replica installed the snapshot it serves', [
        'environment',
      ])
      .addSource(() =>
        held().map((entry) => ({
          labels: { environment: entry.environment },
          value: (Date.now() - entry.installedAt) / 1000,
        })),
      ),
    metrics
      .sampledGauge('bunting_snapshot_compile_seconds', 'Time the served snapshot took to compile', ['environment'])
      .addSource(() =>
        held().map((entry) => ({ labels: { environment: entry.environment }, value: entry.compileMs / 1000 })),
      ),
    metrics
      .sampledGauge(
        'bunting_snapshot_notify_seconds',
        'Time from compiling the served snapshot until every open stream was written its change',
        ['environment'],
      )
      .addSource(() =>
        held().map((entry) => ({ labels: { environment: entry.environment }, value: entry.notifyMs / 1000 })),
      ),
    metrics
      .sampledGauge('bunting_sdk_streams_open', 'SDK streams (/api/client/streaming) open on this replica', [])
      .addSource(() => [{ labels: {}, value: counts.streamsOpen() }]),
  ];
  if (!metrics.registry.getSingleMetric('bunting_sdk_answers_total')) {
    new Counter({
      name: 'bunting_sdk_answers_total',
      help: 'SDK answers served from memory, by API',
      labelNames: ['api'],
      registers: [metrics.registry],
      collect() {
        this.reset();
        for (const api of ['frontend', 'client', 'delta', 'ofrep'] as const) this.inc({ api }, counts[api]);
      },
    });
  }
  if (!metrics.registry.getSingleMetric('bunting_snapshot_installs_total')) {
    new Counter({
      name: 'bunting_snapshot_installs_total',
      labelNames: ['environment', 'how'],
      registers: [metrics.registry],
      help: 'Snapshot revisions this replica installed, by how each came: built here, patched from a notice, read from the stored copy',
      collect() {
        this.reset();
        for (const { environment, how, count } of snapshots.installs()) this.inc({ environment, how }, count);
      },
    });
  }
  return () => {
    for (const remove of removals) remove();
  };
}
