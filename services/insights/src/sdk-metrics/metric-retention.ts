import { readInteger, type Env, type Queryable } from '@bunting/platform';
import { dropInstancesNotSeenSince } from '../applications/application-sightings.ts';
import { metricStore } from './metric-store.ts';

/** How long insights keeps what SDKs report. */
export type RetentionPolicy = {
  /** Metrics stay per hour this long, then are summed per UTC day. */
  hourlyHours: number;
  /** Metrics older than this are dropped. */
  metricsDays: number;
  /** A client instance not seen for this long is dropped. */
  instancesDays: number;
};

export function readRetentionPolicy(env: Env = process.env): RetentionPolicy {
  const policy = {
    hourlyHours: 48,
    metricsDays: readInteger(env.METRICS_RETENTION_DAYS, 90, 'METRICS_RETENTION_DAYS'),
    instancesDays: readInteger(env.CLIENT_INSTANCE_RETENTION_DAYS, 30, 'CLIENT_INSTANCE_RETENTION_DAYS'),
  };
  if (policy.metricsDays < 3)
    throw new Error('METRICS_RETENTION_DAYS must be at least 3 (metrics are kept per hour for two days)');
  if (policy.instancesDays < 1) throw new Error('CLIENT_INSTANCE_RETENTION_DAYS must be at least 1');
  return policy;
}

/**
 * Bounds what the metrics tables hold: hours older than the policy's hourly window are summed into the row of their
 * UTC day, days past the kept period are dropped, and so are client instances not seen for a while.
 */
export async function applyRetention(db: Queryable, policy: RetentionPolicy, now = new Date()) {
  const hourlyUntil = new Date(now.getTime() - policy.hourlyHours * 3_600_000).toISOString();
  const keptFrom = new Date(now.getTime() - policy.metricsDays * 86_400_000).toISOString();
  const instancesFrom = new Date(now.getTime() - policy.instancesDays * 86_400_000).toISOString();
  const { rolledUp, dropped } = await metricStore.rollUp(db, hourlyUntil, keptFrom);
  const instancesDropped = await dropInstancesNotSeenSince(db, instancesFrom);
  return { rolledUp, dropped, instancesDropped };
}
