import { z } from 'zod';
import type { MetricsMessage } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const Counted = z.object({ yes: z.number().optional().catch(undefined), no: z.number().optional().catch(undefined) }).catch({});
const MetricsBody = z.object({ bucket: z.object({ toggles: z.record(z.string(), Counted) }) });

/** The flags a metrics message shows evaluated at least once; registrations and malformed bodies show none. */
export function seenFlags(message: MetricsMessage): string[] {
  if (message.kind !== 'client-metrics' && message.kind !== 'frontend-metrics') return [];
  const body = MetricsBody.safeParse(message.body);
  if (!body.success) return [];
  return Object.entries(body.data.bucket.toggles)
    .filter(([name, counts]) => name.length <= 255 && (counts.yes ?? 0) + (counts.no ?? 0) > 0)
    .map(([name]) => name);
}

/**
 * Marks the flags an SDK reported as seen in the token's environment at the time the metrics arrived. Taking the
 * later of the stored and the new time makes a redelivered or late message harmless. Unknown flags are skipped.
 */
export async function recordLastSeen(db: Queryable, message: MetricsMessage): Promise<void> {
  const names = seenFlags(message);
  if (names.length === 0) return;
  await db.query(sql.unsafe`
    insert into admin.feature_environments (feature_name, environment, last_seen_at)
    select f.name, e.name, ${message.receivedAt}::timestamptz
    from admin.features f join admin.environments e on e.name = ${message.environment}
    where f.name = any(${sql.array(names, 'text')})
    on conflict (feature_name, environment) do update
      set last_seen_at = greatest(coalesce(admin.feature_environments.last_seen_at, excluded.last_seen_at), excluded.last_seen_at)`);
}
