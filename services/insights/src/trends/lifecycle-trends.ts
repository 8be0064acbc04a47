import type { Inventory } from '@bunting/contracts';

/** Stages as the lifecycle dashboard groups them: still being built, out in production, waiting for clean-up. */
const GROUP_OF_STAGE: Record<string, 'develop' | 'production' | 'cleanup'> = {
  initial: 'develop',
  'pre-live': 'develop',
  live: 'production',
  completed: 'cleanup',
};

/** Flag types as kinds of work: experiments and releases end; the rest (kill switches, permissions...) stay. */
function categoryOf(type: string): 'experimental' | 'release' | 'permanent' {
  if (type === 'experiment') return 'experimental';
  return type === 'release' ? 'release' : 'permanent';
}

type Category = { flagsOlderThanWeek: number; newFlagsThisWeek: number };
type Group = {
  totalFlags: number;
  averageDays: number;
  categories: Record<'experimental' | 'release' | 'permanent', Category>;
};

/**
 * GET /api/admin/insights/lifecycle: how many live flags are in each group of stages, how long on average they
 * have been in their stage, and per kind of flag how many entered it this week and how many are older.
 */
export function lifecycleTrends(inventory: Inventory) {
  const empty = (): Group => ({
    totalFlags: 0,
    averageDays: 0,
    categories: {
      experimental: { flagsOlderThanWeek: 0, newFlagsThisWeek: 0 },
      release: { flagsOlderThanWeek: 0, newFlagsThisWeek: 0 },
      permanent: { flagsOlderThanWeek: 0, newFlagsThisWeek: 0 },
    },
  });
  const groups = { develop: empty(), production: empty(), cleanup: empty() };
  const days = { develop: 0, production: 0, cleanup: 0 };
  for (const row of inventory.lifecycle) {
    const name = GROUP_OF_STAGE[row.stage];
    if (!name) continue;
    const group = groups[name];
    group.totalFlags += row.total;
    days[name] += row.totalDays;
    const category = group.categories[categoryOf(row.type)];
    category.flagsOlderThanWeek += row.olderThanWeek;
    category.newFlagsThisWeek += row.newThisWeek;
  }
  for (const name of ['develop', 'production', 'cleanup'] as const) {
    const group = groups[name];
    group.averageDays = group.totalFlags > 0 ? Math.round((days[name] / group.totalFlags) * 10) / 10 : 0;
  }
  return { lifecycleTrends: groups };
}
