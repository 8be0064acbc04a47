import { readInteger, type Env } from '@bunting/platform';

/** What insights keeps of impact metrics, and for how long. */
export type ImpactLimits = {
  /** Metrics an environment's series may belong to; a new one beyond it is dropped there and counted. */
  metrics: number;
  /** Series (label sets) of a metric from one application in one environment; a new one beyond it is dropped and counted. */
  seriesPerMetric: number;
  /** Series an environment may hold in all. */
  seriesPerEnvironment: number;
  /** Labels a series may have, those Bunting adds (appName, environment, origin) included. */
  labelsPerSeries: number;
  /** Points are kept per minute this long, per hour until the retention days. */
  minuteHours: number;
  retentionDays: number;
};

export function readImpactLimits(env: Env = process.env): ImpactLimits {
  const limits = {
    metrics: readInteger(env.IMPACT_METRICS_MAX_METRICS, 500, 'IMPACT_METRICS_MAX_METRICS'),
    seriesPerMetric: readInteger(
      env.IMPACT_METRICS_MAX_SERIES_PER_METRIC,
      1000,
      'IMPACT_METRICS_MAX_SERIES_PER_METRIC',
    ),
    seriesPerEnvironment: readInteger(
      env.IMPACT_METRICS_MAX_SERIES_PER_ENVIRONMENT,
      20_000,
      'IMPACT_METRICS_MAX_SERIES_PER_ENVIRONMENT',
    ),
    labelsPerSeries: readInteger(env.IMPACT_METRICS_MAX_LABELS_PER_SERIES, 20, 'IMPACT_METRICS_MAX_LABELS_PER_SERIES'),
    minuteHours: 48,
    retentionDays: readInteger(env.IMPACT_METRICS_RETENTION_DAYS, 30, 'IMPACT_METRICS_RETENTION_DAYS'),
  };
  if (limits.retentionDays < 3)
    throw new Error('IMPACT_METRICS_RETENTION_DAYS must be at least 3 (points are kept per minute for two days)');
  if (
    limits.metrics < 1 ||
    limits.seriesPerMetric < 1 ||
    limits.seriesPerEnvironment < 1 ||
    limits.labelsPerSeries < 3
  ) {
    throw new Error(
      'IMPACT_METRICS_MAX_METRICS, IMPACT_METRICS_MAX_SERIES_PER_METRIC and IMPACT_METRICS_MAX_SERIES_PER_ENVIRONMENT must be at least 1, IMPACT_METRICS_MAX_LABELS_PER_SERIES at least 3',
    );
  }
  return limits;
}
