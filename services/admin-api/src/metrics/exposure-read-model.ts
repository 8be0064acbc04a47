import type { Queryable } from '@bunting/platform';
import { lastSeenStore } from './last-seen-store.ts';

/** What the rest of admin-api may ask of SDK metrics: each flag environment's yes/no counts of the last hour. */
export const exposureReadModel = {
  async lastHour(db: Queryable, featureNames: readonly string[]): Promise<Map<string, { yes: number; no: number }>> {
    const rows = featureNames.length === 0 ? [] : await lastSeenStore.lastHour(db, featureNames);
    return new Map(rows.map((row) => [`${row.featureName}\u0000${row.environment}`, { yes: row.yes, no: row.no }]));
  },
};
