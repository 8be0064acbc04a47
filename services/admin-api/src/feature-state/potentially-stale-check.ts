import { SYSTEM_ACTOR } from '@bunting/contracts';
import type { Logger } from '@bunting/platform';
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
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  const run = () => {
    inFlight = markPotentiallyStale(changes)
      .then(
        (count) => {
          if (count > 0) log.info({ count }, 'flags became potentially stale');
        },
        (error: unknown) => log.warn({ err: error }, 'potentially stale check failed; trying again later'),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(run, intervalMs).unref();
      });
  };
  run();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
