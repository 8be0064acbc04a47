import type { DatabasePool, Logger } from '@bunting/platform';
import type { ImpactLimits } from './impact-limits.ts';
import { impactStore } from './impact-store.ts';

const QUARTER_DAYS = 8;

/** Keeps the impact tables bounded: minutes for 48 hours, quarters for 8 days, hours and series for the retention days. */
export function pruneImpactMetrics(db: DatabasePool, limits: ImpactLimits, now = Date.now()) {
  const ago = (ms: number) => new Date(now - ms).toISOString();
  return impactStore.prune(
    db,
    ago(limits.minuteHours * 3_600_000),
    ago(QUARTER_DAYS * 86_400_000),
    ago(limits.retentionDays * 86_400_000),
  );
}

/** Prunes every `intervalMs` (each replica; deleting what another replica already deleted changes nothing). */
export function startImpactRetention(db: DatabasePool, limits: ImpactLimits, log: Logger, intervalMs = 10 * 60_000) {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = pruneImpactMetrics(db, limits).catch((error: unknown) =>
      log.warn({ err: error }, 'could not prune impact metrics; trying again later'),
    );
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
