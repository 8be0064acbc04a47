import { z } from 'zod';
import type { MetricsMessage } from '@bunting/contracts';
import { sql, type DatabasePool } from '@bunting/platform';

const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).catch(0);
const ToggleCounts = z.object({
  yes: Count.optional(),
  no: Count.optional(),
  variants: z.record(z.string(), Count).optional().catch(undefined),
});
/** The part of an SDK's metrics or registration post insights reads; anything else in it is ignored. */
const MetricsBody = z.object({
  appName: z.string().min(1).max(255),
  bucket: z.object({
    start: z.string().optional(),
    toggles: z.record(z.string(), ToggleCounts.catch({})),
  }).optional(),
});

const HOUR_MS = 3_600_000;
const MAX_SKEW_MS = 2 * 24 * HOUR_MS;

/** The hour a bucket belongs to: its own start, unless missing or implausibly far from when it arrived. */
export function bucketHour(start: string | undefined, receivedAt: string): Date {
  const received = Date.parse(receivedAt);
  const claimed = start === undefined ? Number.NaN : Date.parse(start);
  const at = Number.isFinite(claimed) && Math.abs(claimed - received) <= MAX_SKEW_MS ? claimed : received;
  return new Date(Math.floor(at / HOUR_MS) * HOUR_MS);
}

type MetricRow = { feature: string; yes: number; no: number; variants: [string, number][] };

export function metricRows(toggles: Record<string, z.infer<typeof ToggleCounts>>): MetricRow[] {
  return Object.entries(toggles)
    .filter(([feature]) => feature.length > 0 && feature.length <= 255)
    .map(([feature, counts]) => ({
      feature,
      yes: counts.yes ?? 0,
      no: counts.no ?? 0,
      variants: Object.entries(counts.variants ?? {}).filter(([name]) => name.length <= 255),
    }));
}

/**
 * Adds one metrics or registration message to the hourly sums and the list of applications. Sums are not
 * idempotent by themselves, so the message's stream sequence is recorded in the same transaction and a
 * redelivered message changes nothing.
 */
export async function recordMetrics(db: DatabasePool, message: MetricsMessage, streamSequence: number): Promise<void> {
  const body = MetricsBody.safeParse(message.body);
  if (!body.success) return;
  const { appName, bucket } = body.data;
  const hour = bucketHour(bucket?.start, message.receivedAt).toISOString();
  const rows = bucket ? metricRows(bucket.toggles) : [];
  await db.transaction(async (tx) => {
    const fresh = await tx.query(sql.unsafe`
      insert into insights.processed_metrics (stream_sequence) values (${streamSequence}) on conflict do nothing`);
    if (fresh.rowCount === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.applications (app_name, first_seen, last_seen) values (${appName}, ${message.receivedAt}, ${message.receivedAt})
      on conflict (app_name) do update set last_seen = greatest(insights.applications.last_seen, excluded.last_seen)`);
    if (rows.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.metric_hours (hour, app_name, environment, feature_name, yes, no)
      select ${hour}::timestamptz, ${appName}, ${message.environment}, feature, yes, no
      from unnest(${sql.array(rows.map((row) => row.feature), 'text')}::text[],
        ${sql.array(rows.map((row) => row.yes), 'int8')}::int8[],
        ${sql.array(rows.map((row) => row.no), 'int8')}::int8[]) as t(feature, yes, no)
      on conflict (hour, app_name, environment, feature_name)
      do update set yes = insights.metric_hours.yes + excluded.yes, no = insights.metric_hours.no + excluded.no`);
    const variants = rows.flatMap((row) => row.variants.map(([variant, count]) => ({ feature: row.feature, variant, count })));
    if (variants.length === 0) return;
    await tx.query(sql.unsafe`
      insert into insights.metric_variant_hours (hour, app_name, environment, feature_name, variant, count)
      select ${hour}::timestamptz, ${appName}, ${message.environment}, feature, variant, count
      from unnest(${sql.array(variants.map((row) => row.feature), 'text')}::text[],
        ${sql.array(variants.map((row) => row.variant), 'text')}::text[],
        ${sql.array(variants.map((row) => row.count), 'int8')}::int8[]) as t(feature, variant, count)
      on conflict (hour, app_name, environment, feature_name, variant)
      do update set count = insights.metric_variant_hours.count + excluded.count`);
  });
}
