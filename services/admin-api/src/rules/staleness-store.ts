import { sql } from '@bunting/platform';

/**
 * Whether flag `f` is potentially stale: not marked stale, yet older than its type's expected lifetime.
 * Types without a lifetime (kill switches, permissions) never go stale by age.
 */
export const potentiallyStale = sql.fragment`(not f.stale and exists (
  select 1 from admin.feature_types t where t.id = f.type and t.lifetime_days is not null
    and f.created_at <= now() - make_interval(days => t.lifetime_days)))`;
