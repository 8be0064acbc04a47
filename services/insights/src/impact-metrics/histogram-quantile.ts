/**
 * The q-quantile of observations counted in cumulative buckets (upper bounds ascending, Infinity last), as
 * Prometheus' histogram_quantile estimates it: linearly within the bucket the rank falls in, from 0 below the first
 * bound; a rank in the +Inf bucket answers the highest finite bound. Null when nothing was observed.
 */
export function histogramQuantile(q: number, bounds: readonly number[], cumulative: readonly number[]): number | null {
  const total = cumulative.at(-1) ?? 0;
  if (total <= 0 || bounds.length === 0) return null;
  const rank = q * total;
  const index = cumulative.findIndex((count) => count >= rank);
  if (index < 0) return null;
  if (bounds[index] === Infinity) return bounds.length > 1 ? bounds[bounds.length - 2]! : null;
  const lower = index === 0 ? Math.min(0, bounds[0]!) : bounds[index - 1]!;
  const below = index === 0 ? 0 : cumulative[index - 1]!;
  const inBucket = cumulative[index]! - below;
  if (inBucket <= 0) return bounds[index]!;
  return lower + (bounds[index]! - lower) * ((rank - below) / inBucket);
}
