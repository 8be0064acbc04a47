import type {
  CreateFeatureStrategy,
  ReleasePlan,
  Safeguard,
  SafeguardInput,
  TemplateSafeguard,
  StoredMilestoneStrategy,
} from '@bunting/contracts';
import { ConflictError, NotFoundError, ValidationError, ulid, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import { requireFeature, type FeatureRow } from '../feature-state/feature-lookup.ts';
import { refreshLifecycle } from '../feature-state/lifecycle.ts';
import { requireProjectEnvironment } from '../projects/project-read-model.ts';
import { storedStrategies } from '../release-templates/milestone-strategies.ts';
import { releaseTemplateReadModel } from '../release-templates/release-template-read-model.ts';
import { strategyService } from '../strategies/strategy-service.ts';
import { releasePlanStore, type PlanMilestoneRow, type PlanRow, type SafeguardRow } from './release-plan-store.ts';
import { milestoneView, planView, safeguardView } from './release-plan-views.ts';

/** A flag environment, as the plan routes name it. */
export type FlagEnvironment = { project: string; feature: string; environment: string };

/** What the event data of a plan change names: the plan, and Unleash's name for what happened. */
const about = (plan: PlanRow, unleashEventType: string, extra: Record<string, unknown> = {}) => ({
  unleashEventType,
  releasePlan: { id: plan.id, name: plan.name, templateId: plan.templateId },
  ...extra,
});
const eventScope = (plan: { project: string; featureName: string; environment: string }) => ({
  project: plan.project,
  featureName: plan.featureName,
  environment: plan.environment,
});

async function requirePlan(
  db: Queryable,
  path: FlagEnvironment,
  planId: string,
  options: { forUpdate?: boolean } = {},
): Promise<PlanRow> {
  const plan = await releasePlanStore.plan(db, planId, options);
  if (
    !plan ||
    plan.featureName !== path.feature ||
    plan.environment !== path.environment ||
    plan.project !== path.project
  ) {
    throw new NotFoundError(`Could not find release plan ${planId} of ${path.feature} in ${path.environment}`);
  }
  return plan;
}

async function milestonesOf(db: Queryable, planId: string) {
  return releasePlanStore.milestonesOf(db, [planId]);
}

async function requireMilestoneOf(db: Queryable, plan: PlanRow, milestoneId: string): Promise<PlanMilestoneRow> {
  const milestone = (await milestonesOf(db, plan.id)).find((one) => one.id === milestoneId);
  if (!milestone) throw new NotFoundError(`Could not find milestone ${milestoneId} in release plan ${plan.id}`);
  return milestone;
}

async function requireFlagEnvironment(change: Change, path: FlagEnvironment): Promise<FeatureRow> {
  const feature = await requireFeature(change.tx, path.project, path.feature, { forWrite: true });
  await requireProjectEnvironment(change.tx, path.project, path.environment);
  return feature;
}

/** Milestones start on a plan, by hand or when a progression comes due; the plan's strategies follow. */
async function start(
  change: Change,
  feature: FeatureRow,
  plan: PlanRow,
  milestone: PlanMilestoneRow,
  how: 'manual' | 'progression' | 'environment-enabled',
) {
  await strategyService.replaceMilestone(
    change,
    feature,
    plan.environment,
    { id: milestone.id, strategies: milestone.strategies },
    about(plan, 'release-plan-milestone-started', {
      milestone: { id: milestone.id, name: milestone.name },
      startedBy: how,
    }),
  );
  await releasePlanStore.setActive(change.tx, plan.id, milestone.id);
  await releasePlanStore.markStarted(change.tx, milestone.id);
  await releasePlanStore.rearm(change.tx, milestone.id);
  change.emit({
    type: 'feature-metadata-updated',
    ...eventScope(plan),
    data: about(plan, 'release-plan-milestone-started', {
      milestone: { id: milestone.id, name: milestone.name },
      startedBy: how,
    }),
  });
}

export const releasePlanService = {
  async list(db: Queryable, path: FlagEnvironment): Promise<ReleasePlan[]> {
    await requireFeature(db, path.project, path.feature, { allowArchived: true });
    const plan = await releasePlanStore.planIn(db, path.feature, path.environment);
    if (!plan || plan.project !== path.project) return [];
    return [planView(plan, await milestonesOf(db, plan.id), await releasePlanStore.safeguardsOf(db, [path.feature]))];
  },

  async get(db: Queryable, planId: string): Promise<ReleasePlan> {
    const plan = await releasePlanStore.plan(db, planId);
    if (!plan) throw new NotFoundError(`Could not find release plan ${planId}`);
    return planView(plan, await milestonesOf(db, planId), await releasePlanStore.safeguardsOf(db, [plan.featureName]));
  },

  /**
   * Applies a template to a flag environment: the plan copies its milestones (new ids) and their transitions as
   * progressions. In an enabled environment the first milestone starts at once; in a disabled one the plan waits.
   */
  async add(change: Change, path: FlagEnvironment, templateId: string, createdByUserId: number): Promise<ReleasePlan> {
    const feature = await requireFlagEnvironment(change, path);
    const template = await releaseTemplateReadModel.get(change.tx, templateId);
    if (!template) throw ValidationError.field('templateId', `release template ${templateId} does not exist`);
    if (template.archivedAt !== null)
      throw ValidationError.field('templateId', `release template ${templateId} is archived`);
    if (template.project !== null && template.project !== path.project)
      throw ValidationError.field(
        'templateId',
        `release template ${templateId} belongs to project ${template.project}`,
      );
    if (template.milestones.length === 0)
      throw ValidationError.field('templateId', `release template ${templateId} has no milestones`);
    if (await releasePlanStore.planIn(change.tx, path.feature, path.environment)) {
      throw new ConflictError(`${path.feature} already has a release plan in ${path.environment}: remove it first`);
    }
    const planId = ulid();
    await releasePlanStore.insertPlan(change.tx, {
      id: planId,
      templateId,
      name: template.name,
      description: template.description,
      featureName: feature.name,
      environment: path.environment,
      createdByUserId,
    });
    const ids = template.milestones.map(() => ulid());
    for (const [index, milestone] of template.milestones.entries()) {
      const strategies: StoredMilestoneStrategy[] = milestone.strategies.map((strategy) => ({
        ...strategy,
        id: ulid(),
      }));
      await releasePlanStore.insertMilestone(change.tx, {
        id: ids[index]!,
        planId,
        name: milestone.name,
        sortOrder: index,
        strategies,
      });
    }
    for (const [index, milestone] of template.milestones.entries()) {
      if (milestone.intervalMinutes !== null && index + 1 < ids.length)
        await releasePlanStore.upsertProgression(
          change.tx,
          ids[index]!,
          ids[index + 1]!,
          milestone.intervalMinutes,
          milestone.waitForGuardrails,
        );
    }
    const plan = (await releasePlanStore.plan(change.tx, planId))!;
    change.emit({ type: 'feature-metadata-updated', ...eventScope(plan), data: about(plan, 'release-plan-added') });
    // The template's safeguards, each a new one of this plan, with its own event as one set by hand would have.
    for (const safeguard of template.safeguards) {
      await saveSafeguard(
        change,
        { ...eventScope(plan), planId },
        [],
        safeguard,
        about(plan, 'release-plan-safeguard-changed'),
      );
    }
    if ((await environmentState.get(change.tx, feature.name, path.environment))?.enabled) {
      await start(change, feature, plan, (await milestonesOf(change.tx, planId))[0]!, 'manual');
    }
    return releasePlanService.get(change.tx, planId);
  },

  /** Removes a plan: its running milestone's strategies leave the flag, its progressions and safeguards go with it. */
  async remove(change: Change, path: FlagEnvironment, planId: string) {
    const feature = await requireFlagEnvironment(change, path);
    const plan = await requirePlan(change.tx, path, planId, { forUpdate: true });
    await strategyService.replaceMilestone(
      change,
      feature,
      plan.environment,
      null,
      about(plan, 'release-plan-removed'),
    );
    await releasePlanStore.deletePlan(change.tx, planId);
    change.emit({ type: 'feature-metadata-updated', ...eventScope(plan), data: about(plan, 'release-plan-removed') });
  },

  /** Starts a milestone by hand: forward, or again an earlier one. */
  async startMilestone(change: Change, path: FlagEnvironment, planId: string, milestoneId: string) {
    const feature = await requireFlagEnvironment(change, path);
    const plan = await requirePlan(change.tx, path, planId, { forUpdate: true });
    const milestone = await requireMilestoneOf(change.tx, plan, milestoneId);
    await start(change, feature, plan, milestone, 'manual');
    return milestoneView(await requireMilestoneOf(change.tx, plan, milestoneId));
  },

  /** Sets when one milestone moves on to another on its own. */
  async changeProgression(
    change: Change,
    path: FlagEnvironment,
    sourceMilestoneId: string,
    body: { targetMilestone: string; transitionCondition: { intervalMinutes: number; waitForGuardrails?: boolean } },
  ) {
    await requireFlagEnvironment(change, path);
    const plan = await releasePlanStore.planIn(change.tx, path.feature, path.environment);
    if (!plan) throw new NotFoundError(`${path.feature} has no release plan in ${path.environment}`);
    const milestones = await milestonesOf(change.tx, plan.id);
    const source = milestones.find((milestone) => milestone.id === sourceMilestoneId);
    if (!source) throw new NotFoundError(`Could not find milestone ${sourceMilestoneId} in release plan ${plan.id}`);
    if (!milestones.some((milestone) => milestone.id === body.targetMilestone))
      throw ValidationError.field(
        'targetMilestone',
        `milestone ${body.targetMilestone} is not in release plan ${plan.id}`,
      );
    if (body.targetMilestone === sourceMilestoneId)
      throw ValidationError.field('targetMilestone', 'a milestone cannot progress to itself');
    const existed = source.targetMilestone !== null;
    await releasePlanStore.upsertProgression(
      change.tx,
      sourceMilestoneId,
      body.targetMilestone,
      body.transitionCondition.intervalMinutes,
      body.transitionCondition.waitForGuardrails ?? false,
    );
    change.emit({
      type: 'feature-metadata-updated',
      ...eventScope(plan),
      data: about(plan, existed ? 'milestone-progression-updated' : 'milestone-progression-created', {
        progression: { sourceMilestone: sourceMilestoneId, ...body },
      }),
      preData: existed
        ? {
            progression: {
              sourceMilestone: sourceMilestoneId,
              targetMilestone: source.targetMilestone,
              transitionCondition: {
                intervalMinutes: source.intervalMinutes,
                ...(source.waitForGuardrails ? { waitForGuardrails: true } : {}),
              },
            },
          }
        : null,
    });
  },

  async deleteProgression(change: Change, path: FlagEnvironment, sourceMilestoneId: string) {
    await requireFlagEnvironment(change, path);
    const plan = await releasePlanStore.planIn(change.tx, path.feature, path.environment);
    const source =
      plan && (await milestonesOf(change.tx, plan.id)).find((milestone) => milestone.id === sourceMilestoneId);
    if (!plan || !source || source.targetMilestone === null)
      throw new NotFoundError(`Could not find a progression from milestone ${sourceMilestoneId}`);
    await releasePlanStore.deleteProgression(change.tx, sourceMilestoneId);
    change.emit({
      type: 'feature-metadata-updated',
      ...eventScope(plan),
      data: about(plan, 'milestone-progression-deleted', { progression: { sourceMilestone: sourceMilestoneId } }),
    });
  },

  /** Lets a plan's progressions run again after a safeguard paused them; its safeguards are armed again. */
  async resume(change: Change, path: FlagEnvironment, planId: string) {
    await requireFlagEnvironment(change, path);
    const plan = await requirePlan(change.tx, path, planId, { forUpdate: true });
    const resumed = await releasePlanStore.resume(change.tx, planId);
    await releasePlanStore.clearTriggers(change.tx, planId);
    if (resumed > 0)
      change.emit({
        type: 'feature-metadata-updated',
        ...eventScope(plan),
        data: about(plan, 'release-plan-progressions-resumed'),
      });
  },

  /**
   * Runs a due progression (the scheduler holds its row): the target milestone starts, approved when the progression
   * was set. One that waited for the guardrails' evidence is, where the environment requires change requests, proposed
   * instead: people approve moving on (stopping on harm never waits for them).
   */
  async runProgression(
    change: Change,
    sourceMilestoneId: string,
    minuteMs: number,
    proposeAdvance?: ProposeAdvance,
  ): Promise<boolean> {
    const due = await releasePlanStore.lockDue(change.tx, sourceMilestoneId, minuteMs);
    if (!due) return false;
    const plan = (await releasePlanStore.plan(change.tx, due.planId, { forUpdate: true }))!;
    const target = await releasePlanStore.targetOf(change.tx, sourceMilestoneId);
    const milestones = await milestonesOf(change.tx, plan.id);
    const milestone = target ? milestones.find((one) => one.id === target) : undefined;
    await releasePlanStore.markExecuted(change.tx, sourceMilestoneId);
    if (!milestone) return false;
    if (due.waitForGuardrails && proposeAdvance) {
      const source = milestones.find((one) => one.id === sourceMilestoneId);
      const readings = (await releasePlanStore.safeguardsOf(change.tx, [plan.featureName]))
        .filter((safeguard) => safeguard.planId === plan.id && safeguard.lastComparison !== null)
        .map((safeguard) => `${safeguard.metric.metricName}: ${safeguard.lastComparison!.summary}`);
      const proposed = await proposeAdvance(change, {
        project: plan.project,
        environment: plan.environment,
        featureName: plan.featureName,
        planId: plan.id,
        milestoneId: milestone.id,
        title: `Guardrails call ${source?.name ?? 'the milestone'} safe: start ${milestone.name}`,
        evidence: `The guardrails of release plan ${plan.name} found no harm with the minimum sample in: ${readings.join(' ')}`,
      });
      if (proposed !== null) return true;
    }
    const feature = await requireFeature(change.tx, plan.project, plan.featureName, { forWrite: true });
    change.approve([{ project: plan.project, environment: plan.environment }]);
    await start(change, feature, plan, milestone, 'progression');
    return true;
  },

  /** Sets a plan's safeguard (the one named by id, else its first, else a new one). */
  async putPlanSafeguard(
    change: Change,
    path: FlagEnvironment,
    planId: string,
    input: SafeguardInput,
  ): Promise<Safeguard> {
    await requireFlagEnvironment(change, path);
    const plan = await requirePlan(change.tx, path, planId, { forUpdate: true });
    const existing = (await releasePlanStore.safeguardsOf(change.tx, [path.feature])).filter(
      (safeguard) => safeguard.planId === planId,
    );
    return saveSafeguard(
      change,
      { ...eventScope(plan), planId },
      existing,
      input,
      about(plan, 'release-plan-safeguard-changed'),
    );
  },

  async deletePlanSafeguard(change: Change, path: FlagEnvironment, planId: string, safeguardId: string) {
    await requireFlagEnvironment(change, path);
    const plan = await requirePlan(change.tx, path, planId);
    const safeguard = await releasePlanStore.safeguard(change.tx, safeguardId, { forUpdate: 'wait' });
    if (!safeguard || safeguard.planId !== planId)
      throw new NotFoundError(`Could not find safeguard ${safeguardId} of release plan ${planId}`);
    await releasePlanStore.deleteSafeguard(change.tx, safeguardId);
    change.emit({
      type: 'feature-metadata-updated',
      ...eventScope(plan),
      data: about(plan, 'release-plan-safeguard-deleted'),
      preData: { safeguard: safeguardView(safeguard) },
    });
  },

  /** A safeguard of a flag environment without a plan: when it trips, the flag is turned off there. */
  async putEnvironmentSafeguard(change: Change, path: FlagEnvironment, input: SafeguardInput): Promise<Safeguard> {
    const feature = await requireFlagEnvironment(change, path);
    if (await releasePlanStore.planIn(change.tx, path.feature, path.environment)) {
      throw new ConflictError(
        `${path.feature} has a release plan in ${path.environment}: set the safeguard on the plan`,
      );
    }
    const existing = (await releasePlanStore.safeguardsOf(change.tx, [path.feature])).filter(
      (safeguard) => safeguard.planId === null && safeguard.environment === path.environment,
    );
    const scope = { project: feature.project, featureName: feature.name, environment: path.environment };
    return saveSafeguard(change, { ...scope, planId: null }, existing, input, {
      unleashEventType: 'feature-environment-safeguard-changed',
    });
  },

  async deleteEnvironmentSafeguard(change: Change, path: FlagEnvironment, safeguardId: string) {
    const feature = await requireFlagEnvironment(change, path);
    const safeguard = await releasePlanStore.safeguard(change.tx, safeguardId, { forUpdate: 'wait' });
    if (
      !safeguard ||
      safeguard.planId !== null ||
      safeguard.featureName !== feature.name ||
      safeguard.environment !== path.environment
    ) {
      throw new NotFoundError(`Could not find safeguard ${safeguardId} of ${path.feature} in ${path.environment}`);
    }
    await releasePlanStore.deleteSafeguard(change.tx, safeguardId);
    change.emit({
      type: 'feature-metadata-updated',
      project: feature.project,
      featureName: feature.name,
      environment: path.environment,
      data: { unleashEventType: 'feature-environment-safeguard-deleted' },
      preData: { safeguard: safeguardView(safeguard) },
    });
  },

  /**
   * A safeguard that tripped (the watcher holds its row): a plan's stops its progressions, a flag environment's
   * turns the flag off there. Each writes its event with the reading; an action already taken is not taken again.
   */
  async trip(change: Change, safeguard: SafeguardRow, value: number): Promise<boolean> {
    const scope = { project: safeguard.project, environment: safeguard.environment };
    change.approve([scope]);
    // A guardrail's reason is its comparison: metric, effect, interval, p-value (or the split that broke).
    const comparison = safeguard.comparison ? safeguard.lastComparison : null;
    const reading = {
      unleashEventType: 'safeguard-triggered',
      safeguard: { ...safeguardView(safeguard), triggeredValue: value },
      ...(comparison ? { comparison: { metric: safeguard.metric.metricName, ...comparison } } : {}),
    };
    if (safeguard.planId) {
      const plan = (await releasePlanStore.plan(change.tx, safeguard.planId, { forUpdate: true }))!;
      const by = comparison
        ? `safeguard ${safeguard.id}: ${comparison.summary}`
        : `safeguard ${safeguard.id}: ${safeguard.metric.metricName} ${safeguard.metric.aggregationMode} ${safeguard.operator} ${safeguard.threshold} (was ${value})`;
      // The plan holds while any of its safeguards stays tripped (until resumed); its progressions show the pause.
      await releasePlanStore.pause(change.tx, plan.id, by);
      if (safeguard.triggeredAt !== null) return false;
      // Unleash writes both: what tripped, and the pause it caused. `then` is its field name in the event data.
      change.emit({
        type: 'feature-metadata-updated',
        ...eventScope(plan),
        // oxlint-disable-next-line unicorn/no-thenable -- Unleash's field name
        data: { ...about(plan, 'safeguard-triggered'), ...reading, then: 'release-plan-progressions-paused' },
      });
      change.emit({
        type: 'feature-metadata-updated',
        ...eventScope(plan),
        data: { ...about(plan, 'release-plan-progressions-paused'), pausedBy: by },
      });
      return true;
    }
    const feature = await requireFeature(change.tx, safeguard.project, safeguard.featureName, { forWrite: true });
    if (!(await environmentState.get(change.tx, feature.name, safeguard.environment))?.enabled) return false;
    await environmentState.setEnabled(change.tx, feature.name, safeguard.environment, false);
    change.emit({
      type: 'feature-environment-disabled',
      project: feature.project,
      featureName: feature.name,
      environment: safeguard.environment,
      // oxlint-disable-next-line unicorn/no-thenable -- Unleash's field name
      data: { ...reading, then: 'feature-environment-disabled' },
    });
    await refreshLifecycle(change.tx, feature);
    return true;
  },

  /** A flag environment switched on: a plan waiting there starts its first milestone. */
  async environmentEnabled(change: Change, featureName: string, environment: string) {
    const plan = await releasePlanStore.planIn(change.tx, featureName, environment);
    if (!plan || plan.activeMilestoneId !== null) return;
    const first = (await milestonesOf(change.tx, plan.id))[0];
    if (!first) return;
    const feature = await requireFeature(change.tx, plan.project, featureName, { forWrite: true });
    await start(change, feature, plan, first, 'environment-enabled');
  },

  /** A running milestone's strategy edited on the flag: the plan's copy follows, so starting it again serves the edit. */
  async milestoneStrategyEdited(change: Change, strategy: { id: string; milestoneId: string }) {
    const [row] = await releasePlanStore.milestonesOfIds(change.tx, [strategy.milestoneId]);
    if (!row) return;
    const current = (await strategyService.milestoneStrategies(change.tx, strategy.milestoneId)).find(
      (one) => one.id === strategy.id,
    );
    if (!current) return;
    await releasePlanStore.setStrategies(
      change.tx,
      row.id,
      row.strategies.map((stored) => (stored.id === strategy.id ? current : stored)),
    );
  },

  /** The plan in a flag environment, for a change that names a milestone without its plan. */
  async planIdIn(db: Queryable, path: FlagEnvironment): Promise<string> {
    const plan = await releasePlanStore.planIn(db, path.feature, path.environment);
    if (!plan || plan.project !== path.project)
      throw new NotFoundError(`${path.feature} has no release plan in ${path.environment}`);
    return plan.id;
  },

  /**
   * Changes one strategy of a plan's milestone (Unleash's updateMilestoneStrategy): on the flag when the milestone
   * is running (the plan's copy follows), else in the plan, for when it starts.
   */
  async updateMilestoneStrategy(
    change: Change,
    path: FlagEnvironment,
    strategyId: string,
    input: Partial<CreateFeatureStrategy>,
  ) {
    const feature = await requireFlagEnvironment(change, path);
    const plan = await releasePlanStore.planIn(change.tx, path.feature, path.environment);
    const milestone =
      plan &&
      (await milestonesOf(change.tx, plan.id)).find((one) =>
        one.strategies.some((strategy) => strategy.id === strategyId),
      );
    if (!plan || !milestone)
      throw new NotFoundError(
        `Could not find milestone strategy ${strategyId} of ${path.feature} in ${path.environment}`,
      );
    const stored = milestone.strategies.find((strategy) => strategy.id === strategyId)!;
    // The kept strategy passed its checks when written; the merge is checked again as it goes back.
    const next: CreateFeatureStrategy = {
      ...(stored as unknown as CreateFeatureStrategy),
      ...input,
      name: input.name ?? stored.name,
      sortOrder: input.sortOrder ?? stored.sortOrder,
    };
    if (plan.activeMilestoneId === milestone.id) {
      await strategyService.update(
        change,
        { project: feature.project, feature: feature.name, environment: path.environment },
        strategyId,
        next,
      );
      return;
    }
    const [checked] = await storedStrategies(change.tx, [{ ...next, id: strategyId }], new Set([strategyId]));
    await releasePlanStore.setStrategies(
      change.tx,
      milestone.id,
      milestone.strategies.map((strategy) => (strategy.id === strategyId ? checked! : strategy)),
    );
    change.emit({
      type: 'feature-metadata-updated',
      ...eventScope(plan),
      data: about(plan, 'release-plan-milestone-strategy-updated', {
        milestone: { id: milestone.id, name: milestone.name },
        strategy: checked,
      }),
    });
  },

  /** The environment left the project: the plans of its flags there go. */
  async projectEnvironmentRemoved(change: Change, project: string, environment: string) {
    for (const plan of await releasePlanStore.plansInProjectEnvironment(change.tx, project, environment))
      await releasePlanStore.deletePlan(change.tx, plan.id);
  },
};

/**
 * Proposes starting a milestone as a change request where the plan's environment requires them, with the evidence
 * that called for it; the request's id, or null where the environment does not require them.
 */
export type ProposeAdvance = (
  change: Change,
  proposal: {
    project: string;
    environment: string;
    featureName: string;
    planId: string;
    milestoneId: string;
    title: string;
    evidence: string;
  },
) => Promise<number | null>;

/** A threshold's condition as given; a comparison's, when left out, is its lift beyond zero on the side of harm. */
function conditionOf(input: SafeguardInput | TemplateSafeguard) {
  const comparison = input.comparison ?? null;
  const trigger = input.triggerCondition ?? {
    operator: comparison?.harm === 'decrease' ? ('<' as const) : ('>' as const),
    threshold: 0,
  };
  return { operator: trigger.operator, threshold: trigger.threshold, comparison };
}

/** Writes a safeguard (the one named, else the first existing, else a new one) with its event. */
async function saveSafeguard(
  change: Change,
  owner: { project: string; featureName: string; environment: string; planId: string | null },
  existing: readonly SafeguardRow[],
  input: SafeguardInput | TemplateSafeguard,
  data: Record<string, unknown>,
): Promise<Safeguard> {
  const named = 'id' in input ? input.id : undefined;
  const before = named ? existing.find((safeguard) => safeguard.id === named) : existing[0];
  if (named && !before) throw new NotFoundError(`Could not find safeguard ${named}`);
  const id = before?.id ?? ulid();
  await releasePlanStore.saveSafeguard(change.tx, {
    id,
    planId: owner.planId,
    featureName: owner.featureName,
    environment: owner.environment,
    metricId: before?.metricId ?? ulid(),
    metric: { ...input.impactMetric, source: input.impactMetric.source ?? 'internal' },
    ...conditionOf(input),
  });
  const saved = safeguardView((await releasePlanStore.safeguard(change.tx, id))!);
  change.emit({
    type: 'feature-metadata-updated',
    project: owner.project,
    featureName: owner.featureName,
    environment: owner.environment,
    data: { ...data, safeguard: saved },
    preData: before ? { safeguard: safeguardView(before) } : null,
  });
  return saved;
}
