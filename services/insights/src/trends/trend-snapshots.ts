import type { Inventory } from '@bunting/contracts';
import type { DatabasePool } from '@bunting/platform';
import { learnInventory } from '../facts/event-facts.ts';
import { trendStore } from './trend-store.ts';

/**
 * Records today's snapshot from admin-api's inventory: user, flag and per-project trends for the day (a later
 * snapshot of the same day replaces an earlier one), and the latest flag projects and environment types.
 * A user counts as active when seen within 30 days.
 */
export async function recordSnapshot(db: DatabasePool, inventory: Inventory): Promise<void> {
  await db.transaction(async (tx) => {
    await trendStore.recordDay(tx, inventory);
    await learnInventory(tx, inventory);
  });
}
