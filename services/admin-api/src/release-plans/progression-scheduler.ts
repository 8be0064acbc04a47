import { SYSTEM_ACTOR } from '@bunting/contracts';
import type { DatabasePool, Logger, Metrics } from '@bunting/platform';
import type { Changes } from '../events/changes.ts';
import { releasePlanService } from './release-plan-service.ts';
import { releasePlanStore } from './release-plan-store.ts';

const BATCH = 20;

/**
 * Runs milestone progressions when they come due. Every admin-api replica runs one; each progression is taken under
 * a row lock (others skip it), re-checked and marked executed in the transaction that starts its target, so it runs
 * once however many replicas look, and one that came due while every replica was down (or between a replica's
 * death and its restart) runs on the first tick after.
 */
export function startProgressionScheduler(
  deps: { db: DatabasePool; changes: Changes; log: Logger; metrics?: Metrics },
  options: { intervalMs: number; minuteMs: number },
) {
  const ran = deps.metrics?.counter(
    'bunting_release_progressions_total',
    'Milestone progressions this replica ran',
    [],
  );
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function tick() {
    try {
      for (const due of await releasePlanStore.due(deps.db, BATCH, options.minuteMs)) {
        if (stopped) return;
        // Approved when the progression was set; the unit of work is told so for the plan's environment.
        const started = await deps.changes.run({ system: SYSTEM_ACTOR }, (change) =>
          releasePlanService.runProgression(change, due.sourceMilestone, options.minuteMs),
        );
        if (started) ran?.inc();
      }
    } catch (error) {
      deps.log.warn({ err: error }, 'milestone progressions: will try again');
    }
  }

  const loop = () => {
    if (stopped) return;
    running = tick().finally(() => {
      if (!stopped) timer = setTimeout(loop, options.intervalMs);
    });
  };
  loop();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
