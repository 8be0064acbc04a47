import type { DatabasePool, Logger } from '@bunting/platform';
import type { TrackingLimits } from './tracking-limits.ts';
import { trackedUnitStore } from './tracked-unit-store.ts';

/** Drops tracked days past the retention every `intervalMs` (on each replica: deleting twice changes nothing). */
export function startTrackedUnitRetention(
  db: DatabasePool,
  limits: TrackingLimits,
  log: Logger,
  intervalMs = 60 * 60_000,
) {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    const before = new Date(Date.now() - limits.retentionDays * 86_400_000).toISOString().slice(0, 10);
    running = trackedUnitStore
      .prune(db, before)
      .catch((error: unknown) => log.warn({ err: error }, 'could not prune tracked outcomes; trying again later'));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
