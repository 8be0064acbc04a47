import { SYSTEM_ACTOR } from '@bunting/contracts';
import { repeatEvery, type DatabasePool, type Logger, type Metrics } from '@bunting/platform';
import type { Changes } from '../events/changes.ts';
import { releasePlanService, type ProposeAdvance } from './release-plan-service.ts';
import { releasePlanStore } from './release-plan-store.ts';

const BATCH = 20;

/**
 * Runs milestone progressions when they come due. Every admin-api replica runs one; each progression is taken under
 * a row lock (others skip it), re-checked and marked executed in the transaction that starts its target, so it runs
 * once however many replicas look, and one that came due while every replica was down (or between a replica's
 * death and its restart) runs on the first tick after.
 */
export function startProgressionScheduler(
  deps: { db: DatabasePool; changes: Changes; log: Logger; metrics?: Metrics; proposeAdvance?: ProposeAdvance },
  options: { intervalMs: number; minuteMs: number },
) {
  const ran = deps.metrics?.counter(
    'bunting_release_progressions_total',
    'Milestone progressions this replica ran',
    [],
  );
  return repeatEvery(
    async (stopping) => {
      for (const due of await releasePlanStore.due(deps.db, BATCH, options.minuteMs)) {
        if (stopping.aborted) return;
        // Approved when the progression was set; the unit of work is told so for the plan's environment.
        const started = await deps.changes.run({ system: SYSTEM_ACTOR }, (change) =>
          releasePlanService.runProgression(change, due.sourceMilestone, options.minuteMs, deps.proposeAdvance),
        );
        if (started) ran?.inc();
      }
    },
    options.intervalMs,
    { log: deps.log, what: 'milestone progressions' },
  );
}
