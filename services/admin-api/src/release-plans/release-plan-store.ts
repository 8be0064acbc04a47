import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import {
  ComparisonReading,
  ImpactArmTotals,
  SafeguardComparison,
  SafeguardMetricInput,
  StoredMilestoneStrategy,
} from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const time = (column: string) =>
  sql.fragment`to_char(${sql.identifier(column.split('.'))} at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const PlanRow = z.object({
  id: z.string(),
  templateId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  featureName: z.string(),
  environment: z.string(),
  project: z.string(),
  createdByUserId: z.number(),
  createdAt: z.string(),
  activeMilestoneId: z.string().nullable(),
});
export type PlanRow = z.infer<typeof PlanRow>;

export const PlanMilestoneRow = z.object({
  id: z.string(),
  planId: z.string(),
  name: z.string(),
  sortOrder: z.number(),
  strategies: z.array(StoredMilestoneStrategy),
  startedAt: z.string().nullable(),
  /** The progression from this milestone, if any. */
  targetMilestone: z.string().nullable(),
  intervalMinutes: z.number().nullable(),
  waitForGuardrails: z.boolean().nullable(),
  progressionExecutedAt: z.string().nullable(),
  pausedAt: z.string().nullable(),
  pausedBy: z.string().nullable(),
});
export type PlanMilestoneRow = z.infer<typeof PlanMilestoneRow>;

/**
 * A guardrail's cumulative figures at its first look in a milestone (or on a flag environment since it was set);
 * later looks subtract them, so the comparison covers only the time since.
 */
export const ComparisonBaseline = z.object({
  since: z.string(),
  milestoneId: z.string().nullable(),
  /** The treatment's share when it was taken: a new split starts the comparison again. */
  share: z.number().nullable(),
  /** False for the first, taken while SDKs may still serve the old split; the settled one is taken after. */
  settled: z.boolean(),
  on: ImpactArmTotals,
  off: ImpactArmTotals,
  exposures: z.object({ yes: z.number(), no: z.number() }),
});
export type ComparisonBaseline = z.infer<typeof ComparisonBaseline>;

export const SafeguardRow = z.object({
  id: z.string(),
  planId: z.string().nullable(),
  featureName: z.string(),
  environment: z.string(),
  project: z.string(),
  metricId: z.string(),
  metric: SafeguardMetricInput,
  operator: z.enum(['>', '<']),
  threshold: z.number(),
  triggeredAt: z.string().nullable(),
  triggeredValue: z.number().nullable(),
  evaluatedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  comparison: SafeguardComparison.nullable(),
  comparisonBaseline: ComparisonBaseline.nullable(),
  lastComparison: ComparisonReading.nullable(),
});
export type SafeguardRow = z.infer<typeof SafeguardRow>;

/** A progression that is due: its source is its plan's active milestone and has run its interval. */
export const DueProgression = z.object({
  sourceMilestone: z.string(),
  planId: z.string(),
  waitForGuardrails: z.boolean(),
});

const planColumns = sql.fragment`p.id, p.template_id as "templateId", p.name, p.description, p.feature_name as "featureName",
  p.environment, f.project_id as project, p.created_by_user_id as "createdByUserId", ${time('p.created_at')} as "createdAt",
  p.active_milestone_id as "activeMilestoneId"`;
const milestoneColumns = sql.fragment`m.id, m.plan_id as "planId", m.name, m.sort_order as "sortOrder", m.strategies,
  ${time('m.started_at')} as "startedAt", g.target_milestone as "targetMilestone", g.interval_minutes as "intervalMinutes",
  g.wait_for_guardrails as "waitForGuardrails",
  ${time('g.executed_at')} as "progressionExecutedAt", ${time('g.paused_at')} as "pausedAt", g.paused_by as "pausedBy"`;
const safeguardColumns = sql.fragment`s.id, s.plan_id as "planId", s.feature_name as "featureName", s.environment,
  f.project_id as project, s.metric_id as "metricId", s.metric, s.operator, s.threshold, ${time('s.triggered_at')} as "triggeredAt",
  s.triggered_value as "triggeredValue", ${time('s.evaluated_at')} as "evaluatedAt", s.last_error as "lastError",
  s.comparison, s.comparison_baseline as "comparisonBaseline", s.last_comparison as "lastComparison"`;

/** A progression waiting for evidence: every guardrail of the plan has called the running milestone safe. */
const evidenceIn = sql.fragment`(not g.wait_for_guardrails or not exists (
  select 1 from admin.safeguards s where s.plan_id = p.id and s.comparison is not null
    and (s.comparison_baseline->>'milestoneId' is distinct from m.id or s.last_comparison->>'decision' is distinct from 'safe')))`;

/** Release plans, their milestones and progressions, and safeguards. */
export const releasePlanStore = {
  plansOf(db: Queryable, featureNames: readonly string[]) {
    return db.any(sql.type(
      PlanRow,
    )`select ${planColumns} from admin.release_plans p join admin.features f on f.name = p.feature_name
      where p.feature_name = any(${sql.array([...featureNames], 'text')}) order by p.created_at, p.id`);
  },
  plan(db: Queryable, id: string, options: { forUpdate?: boolean } = {}) {
    return db.maybeOne(sql.type(
      PlanRow,
    )`select ${planColumns} from admin.release_plans p join admin.features f on f.name = p.feature_name
      where p.id = ${id} ${options.forUpdate ? sql.fragment`for update of p` : sql.fragment``}`);
  },
  planIn(db: Queryable, featureName: string, environment: string) {
    return db.maybeOne(sql.type(
      PlanRow,
    )`select ${planColumns} from admin.release_plans p join admin.features f on f.name = p.feature_name
      where p.feature_name = ${featureName} and p.environment = ${environment}`);
  },
  async insertPlan(db: WriteTx, row: Omit<PlanRow, 'createdAt' | 'activeMilestoneId' | 'project'>) {
    await db.query(sql.unsafe`insert into admin.release_plans (id, template_id, name, description, feature_name, environment, created_by_user_id)
      values (${row.id}, ${row.templateId}, ${row.name}, ${row.description}, ${row.featureName}, ${row.environment}, ${row.createdByUserId})`);
  },
  async deletePlan(db: WriteTx, id: string) {
    await db.query(sql.unsafe`delete from admin.release_plans where id = ${id}`);
  },
  /** Every plan of a project's flags in one environment (what goes when the environment leaves the project). */
  plansInProjectEnvironment(db: Queryable, project: string, environment: string) {
    return db.any(sql.type(
      PlanRow,
    )`select ${planColumns} from admin.release_plans p join admin.features f on f.name = p.feature_name
      where f.project_id = ${project} and p.environment = ${environment}`);
  },
  async setActive(db: WriteTx, planId: string, milestoneId: string | null) {
    await db.query(
      sql.unsafe`update admin.release_plans set active_milestone_id = ${milestoneId} where id = ${planId}`,
    );
  },

  milestonesOf(db: Queryable, planIds: readonly string[]) {
    return db.any(sql.type(PlanMilestoneRow)`select ${milestoneColumns} from admin.release_plan_milestones m
      left join admin.milestone_progressions g on g.source_milestone = m.id
      where m.plan_id = any(${sql.array([...planIds], 'text')}) order by m.plan_id, m.sort_order, m.id`);
  },
  milestonesOfIds(db: Queryable, ids: readonly string[]) {
    return db.any(sql.type(PlanMilestoneRow)`select ${milestoneColumns} from admin.release_plan_milestones m
      left join admin.milestone_progressions g on g.source_milestone = m.id
      where m.id = any(${sql.array([...ids], 'text')})`);
  },
  async insertMilestone(
    db: WriteTx,
    row: { id: string; planId: string; name: string; sortOrder: number; strategies: unknown },
  ) {
    await db.query(sql.unsafe`insert into admin.release_plan_milestones (id, plan_id, name, sort_order, strategies)
      values (${row.id}, ${row.planId}, ${row.name}, ${row.sortOrder}, ${sql.jsonb(row.strategies as never)})`);
  },
  async markStarted(db: WriteTx, milestoneId: string) {
    await db.query(sql.unsafe`update admin.release_plan_milestones set started_at = now() where id = ${milestoneId}`);
  },
  async setStrategies(db: WriteTx, milestoneId: string, strategies: unknown) {
    await db.query(
      sql.unsafe`update admin.release_plan_milestones set strategies = ${sql.jsonb(strategies as never)} where id = ${milestoneId}`,
    );
  },

  /** Sets a progression; one set while a safeguard holds its plan is paused from the start. */
  async upsertProgression(
    db: WriteTx,
    source: string,
    target: string,
    intervalMinutes: number,
    waitForGuardrails = false,
  ) {
    await db.query(sql.unsafe`insert into admin.milestone_progressions (source_milestone, target_milestone, interval_minutes, wait_for_guardrails, paused_at, paused_by)
      select ${source}, ${target}, ${intervalMinutes}, ${waitForGuardrails}, held.at, held.by
      from (select 1) one left join lateral (
        select now() as at, 'safeguard ' || s.id as by from admin.safeguards s join admin.release_plan_milestones m on m.plan_id = s.plan_id
        where m.id = ${source} and s.triggered_at is not null limit 1) held on true
      on conflict (source_milestone) do update set target_milestone = excluded.target_milestone, interval_minutes = excluded.interval_minutes,
        wait_for_guardrails = excluded.wait_for_guardrails, executed_at = null, paused_at = coalesce(milestone_progressions.paused_at, excluded.paused_at), paused_by = coalesce(milestone_progressions.paused_by, excluded.paused_by)`);
  },
  async deleteProgression(db: WriteTx, source: string) {
    return (
      (await db.query(sql.unsafe`delete from admin.milestone_progressions where source_milestone = ${source}`))
        .rowCount > 0
    );
  },
  /** A progression may run again once its source has been started anew. */
  async rearm(db: WriteTx, source: string) {
    await db.query(
      sql.unsafe`update admin.milestone_progressions set executed_at = null where source_milestone = ${source}`,
    );
  },
  async markExecuted(db: WriteTx, source: string) {
    await db.query(
      sql.unsafe`update admin.milestone_progressions set executed_at = now() where source_milestone = ${source}`,
    );
  },
  async pause(db: WriteTx, planId: string, by: string) {
    return (
      await db.query(sql.unsafe`update admin.milestone_progressions g set paused_at = now(), paused_by = ${by}
      from admin.release_plan_milestones m where m.id = g.source_milestone and m.plan_id = ${planId} and g.paused_at is null`)
    ).rowCount;
  },
  async resume(db: WriteTx, planId: string) {
    return (
      await db.query(sql.unsafe`update admin.milestone_progressions g set paused_at = null, paused_by = null
      from admin.release_plan_milestones m where m.id = g.source_milestone and m.plan_id = ${planId} and g.paused_at is not null`)
    ).rowCount;
  },
  /** Progressions whose source is its plan's active milestone, started at least its interval ago, in an enabled flag environment. */
  due(db: Queryable, limit: number, minuteMs: number) {
    return db.any(sql.type(DueProgression)`
      select g.source_milestone as "sourceMilestone", m.plan_id as "planId", g.wait_for_guardrails as "waitForGuardrails"
      from admin.milestone_progressions g
      join admin.release_plan_milestones m on m.id = g.source_milestone
      join admin.release_plans p on p.id = m.plan_id and p.active_milestone_id = m.id
      join admin.feature_environments fe on fe.feature_name = p.feature_name and fe.environment = p.environment and fe.enabled
      where g.executed_at is null and g.paused_at is null and m.started_at + make_interval(secs => g.interval_minutes * ${minuteMs / 1000}) <= now()
        and not exists (select 1 from admin.safeguards s where s.plan_id = p.id and s.triggered_at is not null)
        and ${evidenceIn}
      order by m.started_at limit ${limit}`);
  },
  /** The progression locked for running it, still due; null when another replica holds it or has run it. */
  lockDue(db: Queryable, source: string, minuteMs: number) {
    return db.maybeOne(sql.type(DueProgression)`
      select g.source_milestone as "sourceMilestone", m.plan_id as "planId", g.wait_for_guardrails as "waitForGuardrails"
      from admin.milestone_progressions g
      join admin.release_plan_milestones m on m.id = g.source_milestone
      join admin.release_plans p on p.id = m.plan_id and p.active_milestone_id = m.id
      join admin.feature_environments fe on fe.feature_name = p.feature_name and fe.environment = p.environment and fe.enabled
      where g.source_milestone = ${source} and g.executed_at is null and g.paused_at is null
        and m.started_at + make_interval(secs => g.interval_minutes * ${minuteMs / 1000}) <= now()
        and not exists (select 1 from admin.safeguards s where s.plan_id = p.id and s.triggered_at is not null)
        and ${evidenceIn}
      for update of g skip locked`);
  },
  targetOf(db: Queryable, source: string) {
    return db.maybeOneFirst(
      sql.type(
        z.object({ target: z.string() }),
      )`select target_milestone as target from admin.milestone_progressions where source_milestone = ${source}`,
    );
  },

  safeguardsOf(db: Queryable, featureNames: readonly string[]) {
    return db.any(sql.type(
      SafeguardRow,
    )`select ${safeguardColumns} from admin.safeguards s join admin.features f on f.name = s.feature_name
      where s.feature_name = any(${sql.array([...featureNames], 'text')}) order by s.created_at, s.id`);
  },
  safeguard(db: Queryable, id: string, options: { forUpdate?: 'wait' | 'skip' } = {}) {
    const lock =
      options.forUpdate === 'skip'
        ? sql.fragment`for update of s skip locked`
        : options.forUpdate === 'wait'
          ? sql.fragment`for update of s`
          : sql.fragment``;
    return db.maybeOne(sql.type(
      SafeguardRow,
    )`select ${safeguardColumns} from admin.safeguards s join admin.features f on f.name = s.feature_name
      where s.id = ${id} ${lock}`);
  },
  async saveSafeguard(
    db: WriteTx,
    row: {
      id: string;
      planId: string | null;
      featureName: string;
      environment: string;
      metricId: string;
      metric: unknown;
      operator: string;
      threshold: number;
      comparison: SafeguardComparison | null;
    },
  ) {
    const comparison = row.comparison === null ? null : sql.jsonb(row.comparison);
    // A changed safeguard starts afresh: a guardrail's comparison begins again at its next look.
    await db.query(sql.unsafe`insert into admin.safeguards (id, plan_id, feature_name, environment, metric_id, metric, operator, threshold, comparison)
      values (${row.id}, ${row.planId}, ${row.featureName}, ${row.environment}, ${row.metricId}, ${sql.jsonb(row.metric as never)}, ${row.operator}, ${row.threshold}, ${comparison})
      on conflict (id) do update set metric = excluded.metric, operator = excluded.operator, threshold = excluded.threshold,
        comparison = excluded.comparison, comparison_baseline = null, last_comparison = null,
        triggered_at = null, triggered_value = null, last_error = null`);
  },
  async deleteSafeguard(db: WriteTx, id: string) {
    await db.query(sql.unsafe`delete from admin.safeguards where id = ${id}`);
  },
  /** Safeguards to read now: not read within `everyMs`, the longest unread first. */
  dueSafeguards(db: Queryable, everyMs: number, limit: number) {
    return db.anyFirst(sql.type(z.object({ id: z.string() }))`
      select id from admin.safeguards where evaluated_at is null or evaluated_at <= now() - make_interval(secs => ${everyMs / 1000})
      order by evaluated_at nulls first, id limit ${limit}`);
  },
  async recordReading(db: WriteTx, id: string, reading: { error: string | null; triggeredValue?: number }) {
    await db.query(sql.unsafe`update admin.safeguards set evaluated_at = now(), last_error = ${reading.error}
      ${reading.triggeredValue === undefined ? sql.fragment`` : sql.fragment`, triggered_at = now(), triggered_value = ${reading.triggeredValue}`}
      where id = ${id}`);
  },
  /** A guardrail's look: its baseline (set at the first look of a milestone) and what it saw. */
  async recordComparison(
    db: WriteTx,
    id: string,
    look: { baseline: ComparisonBaseline | null; reading: ComparisonReading | null },
  ) {
    const baseline = look.baseline === null ? null : sql.jsonb(look.baseline);
    await db.query(sql.unsafe`update admin.safeguards set comparison_baseline = ${baseline},
      last_comparison = ${look.reading === null ? null : sql.jsonb(look.reading)} where id = ${id}`);
  },
  async clearTriggers(db: WriteTx, planId: string) {
    await db.query(
      sql.unsafe`update admin.safeguards set triggered_at = null, triggered_value = null where plan_id = ${planId}`,
    );
  },
};
