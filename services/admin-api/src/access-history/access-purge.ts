import type { DatabasePool, Logger } from '@bunting/platform';
import { recordKeeping } from '../events/write-tx.ts';
import { accessHistoryStore } from './access-history-store.ts';

/**
 * Deletes sign-in history older than the retention, hourly. Every replica may do it: deleting what is already gone
 * changes nothing, so no claim is needed.
 */
export function startAccessPurge(
  deps: { db: DatabasePool; log: Logger },
  options: { retentionDays: number; purgeEveryMs: number },
) {
  const purge = async () => {
    try {
      await recordKeeping(deps.db, (tx) =>
        accessHistoryStore.purgeBefore(tx, new Date(Date.now() - options.retentionDays * 86_400_000)),
      );
    } catch (error) {
      deps.log.warn({ err: error }, 'could not delete old sign-in history');
    }
  };
  let running = purge();
  const timer = setInterval(() => {
    running = purge();
  }, options.purgeEveryMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
