export type FlagHealthCounts = { total: number; stale: number; potentiallyStale: number };

/** Unleash's health rating: 100 less the share of stale flags and of potentially stale ones, rounded. */
export function healthRating({ total, stale, potentiallyStale }: FlagHealthCounts): number {
  if (total === 0) return 100;
  return Math.round(100 - (stale * 100) / total - (potentiallyStale * 100) / total);
}
