import type { Inventory } from '@bunting/contracts';
import { sql, type DatabasePool } from '@bunting/platform';
import { timeToProduction } from './project-windows.ts';

/**
 * Records today's snapshot from admin-api's inventory: user, flag and per-project trends for the day (a later
 * snapshot of the same day replaces an earlier one), and the latest flag projects and environment types.
 * A user counts as active when seen within 30 days.
 */
export async function recordSnapshot(db: DatabasePool, inventory: Inventory): Promise<void> {
  const day = inventory.takenAt.slice(0, 10);
  const { users, flags } = inventory;
  const active = users.seenWithin.last30;
  const features = Object.entries(inventory.featureProjects);
  await db.transaction(async (tx) => {
    await tx.query(sql.unsafe`
      insert into insights.user_trends (day, total, active, inactive) values (${day}, ${users.total}, ${active}, ${users.total - active})
      on conflict (day) do update set total = excluded.total, active = excluded.active, inactive = excluded.inactive`);
    await tx.query(sql.unsafe`
      insert into insights.flag_trends (day, total, active, stale, potentially_stale)
      values (${day}, ${flags.total}, ${flags.active}, ${flags.stale}, ${flags.potentiallyStale})
      on conflict (day) do update set total = excluded.total, active = excluded.active, stale = excluded.stale,
        potentially_stale = excluded.potentially_stale`);
    if (inventory.environments.length > 0) {
      await tx.query(sql.unsafe`
        insert into insights.environment_types (name, type)
        select * from unnest(${sql.array(inventory.environments.map((e) => e.name), 'text')}::text[],
          ${sql.array(inventory.environments.map((e) => e.type), 'text')}::text[])
        on conflict (name) do update set type = excluded.type`);
    }
    if (features.length > 0) {
      await tx.query(sql.unsafe`
        insert into insights.feature_projects (feature_name, project)
        select * from unnest(${sql.array(features.map(([name]) => name), 'text')}::text[],
          ${sql.array(features.map(([, project]) => project), 'text')}::text[])
        on conflict (feature_name) do update set project = excluded.project`);
    }
    await tx.query(sql.unsafe`delete from insights.project_trends where day = ${day}`);
    const { projects } = inventory;
    if (projects.length > 0) {
      await tx.query(sql.unsafe`
        insert into insights.project_trends (day, project, health, time_to_production, total, active, stale, potentially_stale, users)
        select ${day}::date, c.project, c.health, ${timeToProduction(null)}, c.total, c.active, c.stale, c.potentially_stale, c.users
        from unnest(${sql.array(projects.map((p) => p.id), 'text')}::text[],
          ${sql.array(projects.map((p) => p.health), 'int4')}::int4[],
          ${sql.array(projects.map((p) => p.total), 'int4')}::int4[],
          ${sql.array(projects.map((p) => p.active), 'int4')}::int4[],
          ${sql.array(projects.map((p) => p.stale), 'int4')}::int4[],
          ${sql.array(projects.map((p) => p.potentiallyStale), 'int4')}::int4[],
          ${sql.array(projects.map((p) => p.users), 'int4')}::int4[])
          as c(project, health, total, active, stale, potentially_stale, users)`);
    }
    // A message older than the metrics stream's retention can no longer be redelivered.
    await tx.query(sql.unsafe`delete from insights.processed_metrics where processed_at < now() - interval '2 days'`);
  });
}
