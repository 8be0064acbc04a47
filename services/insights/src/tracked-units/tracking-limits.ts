import { readInteger, type Env } from '@bunting/platform';

/** What insights keeps of tracked outcomes per user, and for how long. */
export type TrackingLimits = {
  /** (user, metric) rows an environment may add in one UTC day; a new one beyond is dropped and counted. */
  unitsPerDay: number;
  /** Users a flag may answer in an environment (an experiment's users); a new one beyond is dropped and counted. */
  unitsPerFlag: number;
  /** Days kept: an experiment's whole run and the period before it it adjusts for. */
  retentionDays: number;
};

export function readTrackingLimits(env: Env = process.env): TrackingLimits {
  const limits = {
    unitsPerDay: readInteger(env.TRACKED_UNITS_MAX_PER_DAY, 1_000_000, 'TRACKED_UNITS_MAX_PER_DAY'),
    unitsPerFlag: readInteger(env.TRACKED_UNITS_MAX_PER_FLAG, 2_000_000, 'TRACKED_UNITS_MAX_PER_FLAG'),
    retentionDays: readInteger(env.TRACKED_UNITS_RETENTION_DAYS, 60, 'TRACKED_UNITS_RETENTION_DAYS'),
  };
  if (limits.unitsPerDay < 1 || limits.unitsPerFlag < 1 || limits.retentionDays < 2) {
    throw new Error(
      'TRACKED_UNITS_MAX_PER_DAY and TRACKED_UNITS_MAX_PER_FLAG must be at least 1, TRACKED_UNITS_RETENTION_DAYS at least 2',
    );
  }
  return limits;
}
