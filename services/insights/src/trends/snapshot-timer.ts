import type { DatabasePool, Logger } from '@bunting/platform';
import type { AdminClient } from '../admin-client.ts';
import { applyRetention, type RetentionPolicy } from '../sdk-metrics/metric-retention.ts';
import { recordSnapshot } from './trend-snapshots.ts';

const HOUR_MS = 3_600_000;
const RETRY_MS = 30_000;

/**
 * Takes the trend snapshot at start and then every hour, so each day has one even when nobody looks at the
 * dashboard, and the environments' types are known early. Until admin-api first answers, it tries again every
 * 30 s. Replicas may both take it: the day's rows are replaced, not added to. The same hourly tick applies the
 * metrics' retention, whether or not admin-api answers.
 */
export function startSnapshotTimer({
  db,
  admin,
  log,
  retention,
}: {
  db: DatabasePool;
  admin: AdminClient;
  log: Logger;
  retention: RetentionPolicy;
}) {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  // Retention is hourly even while the snapshot retries every 30 s (admin-api not answering): it has nothing new to
  // do sooner, and a run every 30 s raced anything that wrote old rows meanwhile.
  let retainedAt = Number.NEGATIVE_INFINITY;
  const take = async (): Promise<number> => {
    if (performance.now() - retainedAt >= HOUR_MS) {
      retainedAt = performance.now();
      try {
        const kept = await applyRetention(db, retention);
        if (kept.rolledUp + kept.dropped + kept.instancesDropped > 0) log.info(kept, 'metrics retention applied');
      } catch (error) {
        log.warn({ err: error }, 'could not apply the metrics retention; trying again in an hour');
      }
    }
    try {
      await recordSnapshot(db, await admin.inventory());
      return HOUR_MS;
    } catch (error) {
      log.warn({ err: error }, 'could not take the trend snapshot; trying again later');
      return RETRY_MS;
    }
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = take().then(schedule);
    }, delay);
    timer.unref();
  };
  schedule(0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
