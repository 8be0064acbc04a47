import { z } from 'zod';
import { metricsEnvironment, type MetricsMessage } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const Count = z.number().optional().catch(undefined);
const Counted = z.object({ yes: Count, no: Count }).catch({});
const SingleBody = z.object({ bucket: z.object({ toggles: z.record(z.string(), Counted) }) });
const BulkBody = z.object({
  metrics: z.array(z.object({ featureName: z.string(), environment: z.string().optional(), yes: Count, no: Count }).nullable().catch(null)),
});

const evaluated = (counts: { yes?: number | undefined; no?: number | undefined }) => (counts.yes ?? 0) + (counts.no ?? 0) > 0;

/**
 * The flags a metrics message shows evaluated at least once, per environment: an SDK's bucket counts in its
 * token's environment, a bulk post's entries in their own if the token may speak for it. Registrations and
 * malformed bodies show none.
 */
export function seenFlags(message: MetricsMessage): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const add = (environment: string, name: string) => {
    if (name.length === 0 || name.length > 255) return;
    seen.set(environment, [...(seen.get(environment) ?? []), name]);
  };
  if (message.kind !== 'client-metrics' && message.kind !== 'frontend-metrics') return seen;
  const single = SingleBody.safeParse(message.body);
  if (single.success) {
    for (const [name, counts] of Object.entries(single.data.bucket.toggles)) if (evaluated(counts)) add(message.environment, name);
    return seen;
  }
  const bulk = BulkBody.safeParse(message.body);
  for (const metric of bulk.success ? bulk.data.metrics : []) {
    const environment = metric && metricsEnvironment(message, metric.environment);
    if (!metric || !environment || !evaluated(metric)) continue;
    add(environment, metric.featureName);
  }
  return seen;
}

/**
 * Marks the flags an SDK reported as seen in their environment at the time the metrics arrived. Taking the later
 * of the stored and the new time makes a redelivered or late message harmless. Unknown flags are skipped.
 */
export async function recordLastSeen(db: Queryable, message: MetricsMessage): Promise<void> {
  for (const [environment, names] of seenFlags(message)) {
    await db.query(sql.unsafe`
      insert into admin.feature_environments (feature_name, environment, last_seen_at)
      select f.name, e.name, ${message.receivedAt}::timestamptz
      from admin.features f join admin.environments e on e.name = ${environment}
      where f.name = any(${sql.array([...new Set(names)], 'text')})
      on conflict (feature_name, environment) do update
        set last_seen_at = greatest(coalesce(admin.feature_environments.last_seen_at, excluded.last_seen_at), excluded.last_seen_at)`);
  }
}
