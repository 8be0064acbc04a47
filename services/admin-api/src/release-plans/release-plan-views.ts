import type { ReleasePlan, Safeguard } from '@bunting/contracts';
import { milestoneStrategyView } from '../release-templates/milestone-strategies.ts';
import type { PlanMilestoneRow, PlanRow, SafeguardRow } from './release-plan-store.ts';

// How plans, their milestones and safeguards are answered, by the routes, the read model and the events alike.

export const milestoneView = (row: PlanMilestoneRow) => ({
  id: row.id,
  name: row.name,
  sortOrder: row.sortOrder,
  releasePlanDefinitionId: row.planId,
  startedAt: row.startedAt,
  transitionCondition:
    row.intervalMinutes === null
      ? null
      : { intervalMinutes: row.intervalMinutes, ...(row.waitForGuardrails ? { waitForGuardrails: true } : {}) },
  progressionExecutedAt: row.progressionExecutedAt,
  pausedAt: row.pausedAt,
  strategies: row.strategies.map((strategy) => milestoneStrategyView(row.id, strategy)),
});

export function safeguardView(row: SafeguardRow): Safeguard {
  const common = {
    id: row.id,
    triggerCondition: { operator: row.operator, threshold: row.threshold },
    impactMetric: { id: row.metricId, ...row.metric },
    triggeredAt: row.triggeredAt,
    triggeredValue: row.triggeredValue,
    evaluatedAt: row.evaluatedAt,
    lastError: row.lastError,
    comparison: row.comparison,
    lastComparison: row.lastComparison,
  };
  return row.planId
    ? { ...common, action: { type: 'pauseReleasePlanProgressions', id: row.planId } }
    : {
        ...common,
        action: {
          type: 'disableFeatureEnvironment',
          featureName: row.featureName,
          environment: row.environment,
          project: row.project,
        },
      };
}

export function planView(
  plan: PlanRow,
  milestones: readonly PlanMilestoneRow[],
  safeguards: readonly SafeguardRow[],
): ReleasePlan {
  return {
    id: plan.id,
    discriminator: 'plan',
    name: plan.name,
    description: plan.description,
    featureName: plan.featureName,
    environment: plan.environment,
    createdByUserId: plan.createdByUserId,
    createdAt: plan.createdAt,
    activeMilestoneId: plan.activeMilestoneId,
    releasePlanTemplateId: plan.templateId,
    milestones: milestones.filter((milestone) => milestone.planId === plan.id).map(milestoneView),
    safeguards: safeguards
      .filter((safeguard) => safeguard.planId === plan.id)
      .map(safeguardView) as ReleasePlan['safeguards'],
  };
}
