import { sql } from '@bunting/platform';

export type FlagHealthCounts = { total: number; stale: number; potentiallyStale: number };

/** Unleash's health rating: 100 less the share of stale flags and of potentially stale ones, rounded. */
export function healthRating({ total, stale, potentiallyStale }: FlagHealthCounts): number {
  if (total === 0) return 100;
  return Math.round(100 - (stale * 100) / total - (potentiallyStale * 100) / total);
}

/**
 * Whether flag `f` is potentially stale: not marked stale, yet older than its type's expected lifetime.
 * Types without a lifetime (kill switches, permissions) never go stale by age.
 */
export const potentiallyStale = sql.fragment`(not f.stale and exists (
  select 1 from admin.feature_types t where t.id = f.type and t.lifetime_days is not null
    and f.created_at <= now() - make_interval(days => t.lifetime_days)))`;
