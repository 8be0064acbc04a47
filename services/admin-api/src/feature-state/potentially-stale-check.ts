import { SYSTEM_ACTOR } from '@bunting/contracts';
import { repeatEvery, type Logger } from '@bunting/platform';
import type { Changes } from '../events/changes.ts';
import { featureStore } from './feature-store.ts';

/**
 * Marks the flags that have outlived their type's expected lifetime and records feature-potentially-stale-on for
 * each, once: the update only takes flags not yet marked, so replicas running it together emit nothing twice.
 * Flags that are no longer potentially stale (marked stale, or their type's lifetime grew) lose the mark quietly.
 */
export async function markPotentiallyStale(changes: Changes): Promise<number> {
  return changes.run({ system: SYSTEM_ACTOR }, async ({ tx, emit }) => {
    const marked = await featureStore.markPotentiallyStale(tx);
    for (const flag of marked)
      emit({ type: 'feature-potentially-stale-on', project: flag.project, featureName: flag.name });
    await featureStore.unmarkPotentiallyStale(tx);
    return marked.length;
  });
}

/** Runs the check at start and then every `intervalMs` (an hour unless configured). */
export function startPotentiallyStaleCheck(changes: Changes, log: Logger, intervalMs: number) {
  return repeatEvery(
    async () => {
      const count = await markPotentiallyStale(changes);
      if (count > 0) log.info({ count }, 'flags became potentially stale');
    },
    intervalMs,
    { log, what: 'potentially stale check' },
  );
}
