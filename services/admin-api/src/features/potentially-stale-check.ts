import { z } from 'zod';
import { SYSTEM_ACTOR } from '@bunting/contracts';
import { sql, type Logger } from '@bunting/platform';
import type { Changes } from '../events/changes.ts';
import { potentiallyStale } from '../projects/project-health.ts';

const Marked = z.object({ name: z.string(), project: z.string() });

/**
 * Marks the flags that have outlived their type's expected lifetime and records feature-potentially-stale-on for
 * each, once: the update only takes flags not yet marked, so replicas running it together emit nothing twice.
 * Flags that are no longer potentially stale (marked stale, or their type's lifetime grew) lose the mark quietly.
 */
export async function markPotentiallyStale(changes: Changes): Promise<number> {
  return changes.run(SYSTEM_ACTOR, async ({ tx, emit }) => {
    const marked = await tx.any(sql.type(Marked)`
      update admin.features f set potentially_stale = true
      where f.archived_at is null and not f.potentially_stale and ${potentiallyStale}
      returning f.name, f.project_id as project`);
    for (const flag of marked) emit({ type: 'feature-potentially-stale-on', project: flag.project, featureName: flag.name });
    await tx.query(sql.unsafe`
      update admin.features f set potentially_stale = false where f.potentially_stale and not ${potentiallyStale}`);
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
      .then((count) => {
        if (count > 0) log.info({ count }, 'flags became potentially stale');
      }, (error: unknown) => log.warn({ err: error }, 'potentially stale check failed; trying again later'))
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
