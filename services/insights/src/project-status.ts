import { z } from 'zod';
import type { Inventory } from '@bunting/contracts';
import { NotFoundError, sql, type Queryable } from '@bunting/platform';

const Activity = z.object({ date: z.string(), count: z.number() });

const STAGES = { initial: 'initial', preLive: 'pre-live', live: 'live', completed: 'completed' } as const;

/**
 * Unleash's project status page: a year of activity per day (from the event stream), what the project holds, its
 * health, and its flags by lifecycle stage with the average days they have spent in it.
 */
export async function projectStatus(db: Queryable, inventory: Inventory, projectId: string) {
  const project = inventory.projects.find((candidate) => candidate.id === projectId);
  if (!project) throw new NotFoundError(`Could not find project with id ${projectId}`);
  const [activityCountByDate, archivedLast30Days] = await Promise.all([
    db.any(sql.type(Activity)`
      select to_char((created_at at time zone 'utc')::date, 'YYYY-MM-DD') as date, count(*)::int as count from insights.events
      where project = ${projectId} and created_at >= now() - interval '1 year' group by 1 order by 1`),
    db.oneFirst(sql.type(z.object({ count: z.number() }))`
      select count(*)::int as count from insights.events
      where project = ${projectId} and type = 'feature-archived' and created_at >= now() - interval '30 days'`),
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
      ...Object.fromEntries(Object.entries(STAGES).map(([key, name]) => [key, stage(name)])) as Record<keyof typeof STAGES, ReturnType<typeof stage>>,
      archived: { currentFlags: stage('archived').currentFlags, last30Days: archivedLast30Days },
    },
    staleFlags: { total: project.stale },
  };
}
