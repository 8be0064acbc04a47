import type { Logger } from '@bunting/platform';
import type { AdminClient } from '../admin-client.ts';

/** How often a name not in the list may send insights back to admin-api for a fresh one. */
const REFRESH_AT_MOST_EVERY_MS = 60_000;

/**
 * The names of the flags admin-api has, from its inventory: what tells a metric about a real flag from one about a
 * name no project has. Asked again when a message names a flag not in the list, at most once a minute.
 */
export function createKnownFlags(admin: Pick<AdminClient, 'inventory'>, log: Logger) {
  let known = new Set<string>();
  let askedAt = 0;
  let asking: Promise<void> | undefined;
  const ask = () => {
    askedAt = Date.now();
    asking ??= admin
      .inventory()
      .then((inventory) => {
        known = new Set(Object.keys(inventory.featureProjects));
      })
      .catch((error: unknown) => log.debug({ err: error }, 'flag names unavailable; keeping the list held'))
      .finally(() => {
        asking = undefined;
      });
    return asking;
  };
  return {
    /** The names among `names` that no flag has, after refreshing the list if one is missing and it is time. */
    async unknownAmong(names: readonly string[]): Promise<Set<string>> {
      if (names.some((name) => !known.has(name)) && Date.now() - askedAt > REFRESH_AT_MOST_EVERY_MS) await ask();
      return new Set(names.filter((name) => !known.has(name)));
    },
  };
}
