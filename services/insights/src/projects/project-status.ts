import type { Inventory } from '@bunting/contracts';
import { NotFoundError, type Queryable } from '@bunting/platform';
import { factStore } from '../facts/fact-store.ts';

const STAGES = { initial: 'initial', preLive: 'pre-live', live: 'live', completed: 'completed' } as const;

/**
 * Unleash's project status page: a year of activity per day (from the event stream), what the project holds, its
 * health, and its flags by lifecycle stage with the average days they have spent in it.
 */
export async function projectStatus(db: Queryable, inventory: Inventory, projectId: string) {
  const project = inventory.projects.find((candidate) => candidate.id === projectId);
  if (!project) throw new NotFoundError(`Could not find project with id ${projectId}`);
  const [activityCountByDate, archivedLast30Days] = await Promise.all([
    factStore.activityByDay(db, projectId),
    factStore.archivedWithin30Days(db, projectId),
  ]);
  const rows = inventory.lifecycle.filter((row) => row.project === projectId);
  const stage = (name: string) => {
    const inStage = rows.filter((row) => row.stage === name);
    const currentFlags = inStage.reduce((sum, row) => sum + row.total, 0);
    const days = inStage.reduce((sum, row) => sum + row.totalDays, 0);
    return { averageDays: currentFlags > 0 ? Math.round((days / currentFlags) * 10) / 10 : null, currentFlags };
  };
  return {
    activityCountByDate: [...activityCountByDate],
    resources: { members: project.users, apiTokens: project.apiTokens, segments: project.segments },
    health: { current: project.health },
    technicalDebt: { current: 100 - project.health },
    lifecycleSummary: {
      ...(Object.fromEntries(Object.entries(STAGES).map(([key, name]) => [key, stage(name)])) as Record<
        keyof typeof STAGES,
        ReturnType<typeof stage>
      >),
      archived: { currentFlags: stage('archived').currentFlags, last30Days: archivedLast30Days },
    },
    staleFlags: { total: project.stale },
  };
}
