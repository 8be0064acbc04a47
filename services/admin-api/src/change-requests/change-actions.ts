import {
  SYSTEM_ACTOR,
  type ChangeRequestChangeInput,
  type CreateFeatureStrategy,
  type SafeguardInput,
} from '@bunting/contracts';
import { Permission, type Queryable, type Scope } from '@bunting/platform';
import { dependencyService } from '../dependencies/dependency-service.ts';
import type { Change } from '../events/changes.ts';
import { findFeature } from '../feature-state/feature-lookup.ts';
import { featureEnvironmentService } from '../features/feature-environment-service.ts';
import { featureService } from '../features/feature-service.ts';
import { releasePlanService, type FlagEnvironment } from '../release-plans/release-plan-service.ts';
import { requireSegment, segmentService } from '../segments/segment-service.ts';
import { strategyService, type StrategyPath } from '../strategies/strategy-service.ts';
import { variantService } from '../variants/variant-service.ts';

/** Where a change request lives: the project and environment every one of its changes applies to. */
export type RequestScope = { project: string; environment: string };

/** A change as stored: its action, the flag it concerns (none for segments) and what was asked. */
export type StoredChange = { feature: string | null; action: string; payload: unknown; snapshot: unknown };

type Handler = {
  /** What proposing (and so applying) this change needs, as the direct route would. */
  permission: (scope: RequestScope) => { permission: string; scope: Scope };
  /** What the change touches as it is now; compared at apply time to find conflicts. */
  snapshot: (db: Queryable, scope: RequestScope, change: StoredChange) => Promise<unknown>;
  /** Why the change cannot be applied as drafted any more, or undefined. */
  conflict: (db: Queryable, scope: RequestScope, change: StoredChange) => Promise<string | undefined>;
  /** Makes the change, through the same service (and so with the same events) as the direct route. */
  apply: (change: Change, scope: RequestScope, stored: StoredChange) => Promise<void>;
};

const path = (scope: RequestScope, stored: StoredChange): StrategyPath => ({
  project: scope.project,
  feature: stored.feature!,
  environment: scope.environment,
});
/** JSON with object keys sorted: a snapshot comes back from jsonb with its keys in jsonb's order, not ours. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([left], [right]) =>
            left < right ? -1 : left > right ? 1 : 0,
          ),
        )
      : inner,
  );
const same = (left: unknown, right: unknown) => canonical(left) === canonical(right);
const inEnvironment = (permission: string) => (scope: RequestScope) => ({ permission, scope });
const inProject = (permission: string) => (scope: RequestScope) => ({ permission, scope: { project: scope.project } });
const nothing = async () => undefined;

/** The strategy as a change to it compares it: its rules, not its place in the list. */
async function strategyState(db: Queryable, scope: RequestScope, stored: StoredChange) {
  const id = (stored.payload as { id: string }).id;
  const { sortOrder: _sortOrder, ...strategy } = await strategyService.get(db, path(scope, stored), id);
  return strategy;
}

async function strategyConflict(db: Queryable, scope: RequestScope, stored: StoredChange) {
  const current = await strategyState(db, scope, stored).catch(() => null);
  if (current === null) return 'The strategy has been deleted since this change was drafted';
  return same(current, stored.snapshot) ? undefined : 'The strategy has been changed since this change was drafted';
}

async function segmentState(db: Queryable, stored: StoredChange) {
  const segment = await requireSegment(db, (stored.payload as { id: number }).id);
  return {
    name: segment.name,
    description: segment.description,
    project: segment.project,
    constraints: segment.constraints,
  };
}

async function segmentConflict(db: Queryable, _scope: RequestScope, stored: StoredChange) {
  const current = await segmentState(db, stored).catch(() => null);
  if (current === null) return 'The segment has been deleted since this change was drafted';
  return same(current, stored.snapshot) ? undefined : 'The segment has been changed since this change was drafted';
}

function strategyInput(payload: unknown): CreateFeatureStrategy {
  const { id: _id, ...input } = payload as CreateFeatureStrategy & { id: string };
  return input;
}

/** The flag environment a release-plan change concerns. */
const flagEnvironment = (scope: RequestScope, stored: StoredChange): FlagEnvironment => ({
  project: scope.project,
  feature: stored.feature!,
  environment: scope.environment,
});
const payloadOf = <T>(stored: StoredChange) => stored.payload as T;
/** The plan a change names is still there, or why not. */
async function planConflict(db: Queryable, scope: RequestScope, stored: StoredChange) {
  const planId = payloadOf<{ planId?: string }>(stored).planId;
  const plans = await releasePlanService.list(db, flagEnvironment(scope, stored)).catch(() => []);
  if (plans.length === 0) return 'The flag has no release plan here any more';
  return planId && !plans.some((plan) => plan.id === planId)
    ? 'The release plan has been removed since this change was drafted'
    : undefined;
}
/** The release plan as it is now, for a reviewer to see what the change changes. */
const planSnapshot = async (db: Queryable, scope: RequestScope, stored: StoredChange) =>
  (await releasePlanService.list(db, flagEnvironment(scope, stored)).catch(() => []))[0] ?? null;

/** Unleash's release-plan actions, made through the same service (so with the same events) as their routes. */
const RELEASE_HANDLERS: Record<
  Extract<
    ChangeRequestChangeInput['action'],
    `${string}ReleasePlan${string}` | `${string}Milestone${string}` | `${string}Safeguard${string}`
  >,
  Handler
> = {
  addReleasePlan: {
    permission: inEnvironment(Permission.CREATE_FEATURE_STRATEGY),
    snapshot: nothing,
    conflict: nothing,
    async apply(change, scope, stored) {
      await releasePlanService.add(
        change,
        flagEnvironment(scope, stored),
        payloadOf<{ templateId: string }>(stored).templateId,
        change.actor.createdByUserId ?? SYSTEM_ACTOR.createdByUserId,
      );
    },
  },
  deleteReleasePlan: {
    permission: inEnvironment(Permission.DELETE_FEATURE_STRATEGY),
    snapshot: planSnapshot,
    conflict: planConflict,
    async apply(change, scope, stored) {
      await releasePlanService.remove(
        change,
        flagEnvironment(scope, stored),
        payloadOf<{ planId: string }>(stored).planId,
      );
    },
  },
  startMilestone: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: planSnapshot,
    conflict: planConflict,
    async apply(change, scope, stored) {
      const { milestoneId, planId } = payloadOf<{ milestoneId: string; planId?: string }>(stored);
      const path = flagEnvironment(scope, stored);
      await releasePlanService.startMilestone(
        change,
        path,
        planId ?? (await releasePlanService.planIdIn(change.tx, path)),
        milestoneId,
      );
    },
  },
  changeMilestoneProgression: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: planSnapshot,
    conflict: planConflict,
    async apply(change, scope, stored) {
      const { sourceMilestone, ...body } = payloadOf<{
        sourceMilestone: string;
        targetMilestone: string;
        transitionCondition: { intervalMinutes: number; waitForGuardrails?: boolean };
      }>(stored);
      await releasePlanService.changeProgression(change, flagEnvironment(scope, stored), sourceMilestone, body);
    },
  },
  deleteMilestoneProgression: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: planSnapshot,
    conflict: planConflict,
    async apply(change, scope, stored) {
      await releasePlanService.deleteProgression(
        change,
        flagEnvironment(scope, stored),
        payloadOf<{ sourceMilestone: string }>(stored).sourceMilestone,
      );
    },
  },
  resumeMilestoneProgression: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: planSnapshot,
    conflict: planConflict,
    async apply(change, scope, stored) {
      await releasePlanService.resume(
        change,
        flagEnvironment(scope, stored),
        payloadOf<{ planId: string }>(stored).planId,
      );
    },
  },
  changeReleasePlanSafeguard: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: planSnapshot,
    conflict: planConflict,
    async apply(change, scope, stored) {
      const { planId, safeguard } = payloadOf<{ planId: string; safeguard: SafeguardInput }>(stored);
      await releasePlanService.putPlanSafeguard(change, flagEnvironment(scope, stored), planId, safeguard);
    },
  },
  deleteReleasePlanSafeguard: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: planSnapshot,
    conflict: planConflict,
    async apply(change, scope, stored) {
      const { planId, safeguardId } = payloadOf<{ planId: string; safeguardId: string }>(stored);
      await releasePlanService.deletePlanSafeguard(change, flagEnvironment(scope, stored), planId, safeguardId);
    },
  },
  changeFeatureEnvSafeguard: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: nothing,
    conflict: nothing,
    async apply(change, scope, stored) {
      await releasePlanService.putEnvironmentSafeguard(
        change,
        flagEnvironment(scope, stored),
        payloadOf<{ safeguard: SafeguardInput }>(stored).safeguard,
      );
    },
  },
  deleteFeatureEnvSafeguard: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: nothing,
    conflict: nothing,
    async apply(change, scope, stored) {
      await releasePlanService.deleteEnvironmentSafeguard(
        change,
        flagEnvironment(scope, stored),
        payloadOf<{ safeguardId: string }>(stored).safeguardId,
      );
    },
  },
  updateMilestoneStrategy: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: planSnapshot,
    conflict: planConflict,
    async apply(change, scope, stored) {
      const { id, ...input } = payloadOf<Partial<CreateFeatureStrategy> & { id: string }>(stored);
      await releasePlanService.updateMilestoneStrategy(change, flagEnvironment(scope, stored), id, input);
    },
  },
};

export const CHANGE_HANDLERS: Record<ChangeRequestChangeInput['action'], Handler> = {
  ...RELEASE_HANDLERS,
  updateEnabled: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_ENVIRONMENT),
    snapshot: nothing,
    conflict: nothing,
    async apply(change, scope, stored) {
      const { enabled, shouldActivateDisabledStrategies } = stored.payload as {
        enabled: boolean;
        shouldActivateDisabledStrategies?: boolean;
      };
      if (enabled && shouldActivateDisabledStrategies) {
        // Unleash's option: when every strategy is disabled, turn them back on instead of adding a default one.
        const strategies = await strategyService.list(change.tx, path(scope, stored));
        if (strategies.length > 0 && strategies.every((strategy) => strategy.disabled)) {
          for (const strategy of strategies) {
            const { id, featureName: _featureName, sortOrder: _sortOrder, ...rest } = strategy;
            await strategyService.update(change, path(scope, stored), id, {
              ...rest,
              disabled: false,
            } as CreateFeatureStrategy);
          }
        }
      }
      await featureEnvironmentService.setEnabled(change, scope.project, stored.feature!, scope.environment, enabled);
    },
  },
  addStrategy: {
    permission: inEnvironment(Permission.CREATE_FEATURE_STRATEGY),
    snapshot: nothing,
    conflict: nothing,
    async apply(change, scope, stored) {
      await strategyService.add(change, path(scope, stored), stored.payload as CreateFeatureStrategy);
    },
  },
  updateStrategy: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: strategyState,
    conflict: strategyConflict,
    async apply(change, scope, stored) {
      await strategyService.update(
        change,
        path(scope, stored),
        (stored.payload as { id: string }).id,
        strategyInput(stored.payload),
      );
    },
  },
  deleteStrategy: {
    permission: inEnvironment(Permission.DELETE_FEATURE_STRATEGY),
    snapshot: strategyState,
    conflict: async (db, scope, stored) =>
      (await strategyState(db, scope, stored).catch(() => null)) === null
        ? 'The strategy has already been deleted'
        : undefined,
    async apply(change, scope, stored) {
      await strategyService.remove(change, path(scope, stored), (stored.payload as { id: string }).id);
    },
  },
  reorderStrategy: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_STRATEGY),
    snapshot: nothing,
    async conflict(db, scope, stored) {
      const existing = new Set((await strategyService.list(db, path(scope, stored))).map((strategy) => strategy.id));
      const missing = (stored.payload as { id: string }[]).find((item) => !existing.has(item.id));
      return missing
        ? `Strategy ${missing.id} in the new order has been deleted since this change was drafted`
        : undefined;
    },
    async apply(change, scope, stored) {
      await strategyService.setSortOrder(
        change,
        path(scope, stored),
        stored.payload as { id: string; sortOrder: number }[],
      );
    },
  },
  patchVariant: {
    permission: inEnvironment(Permission.UPDATE_FEATURE_ENVIRONMENT_VARIANTS),
    snapshot: async (db, scope, stored) =>
      (await variantService.get(db, scope.project, stored.feature!, scope.environment)).variants,
    async conflict(db, scope, stored) {
      const current = (await variantService.get(db, scope.project, stored.feature!, scope.environment)).variants;
      return same(current, stored.snapshot)
        ? undefined
        : 'The variants have been changed since this change was drafted';
    },
    async apply(change, scope, stored) {
      await variantService.put(
        change,
        scope.project,
        stored.feature!,
        scope.environment,
        (stored.payload as { variants: never[] }).variants,
      );
    },
  },
  addDependency: {
    permission: inProject(Permission.UPDATE_FEATURE_DEPENDENCY),
    snapshot: nothing,
    conflict: nothing,
    async apply(change, scope, stored) {
      await dependencyService.add(change, scope.project, stored.feature!, stored.payload as { feature: string });
    },
  },
  deleteDependency: {
    permission: inProject(Permission.UPDATE_FEATURE_DEPENDENCY),
    snapshot: nothing,
    conflict: nothing,
    async apply(change, scope, stored) {
      await dependencyService.removeAll(change, scope.project, stored.feature!);
    },
  },
  archiveFeature: {
    permission: inProject(Permission.DELETE_FEATURE),
    snapshot: nothing,
    conflict: nothing,
    async apply(change, scope, stored) {
      await featureService.archive(change, scope.project, stored.feature!);
    },
  },
  updateSegment: {
    permission: () => ({ permission: Permission.UPDATE_SEGMENT, scope: {} }),
    snapshot: (db, _scope, stored) => segmentState(db, stored),
    conflict: segmentConflict,
    async apply(change, _scope, stored) {
      const { id, ...input } = stored.payload as { id: number; name: string; constraints: never[] };
      await segmentService.update(change, id, input);
    },
  },
  deleteSegment: {
    permission: () => ({ permission: Permission.DELETE_SEGMENT, scope: {} }),
    snapshot: (db, _scope, stored) => segmentState(db, stored),
    conflict: segmentConflict,
    async apply(change, _scope, stored) {
      await segmentService.delete(change, (stored.payload as { id: number }).id);
    },
  },
};

/** Why a flag's changes cannot be applied at all (it was archived or deleted), or undefined. */
export async function featureConflict(
  db: Queryable,
  scope: RequestScope,
  feature: string,
): Promise<string | undefined> {
  const row = await findFeature(db, feature);
  if (!row || row.project !== scope.project) return 'The flag has been deleted';
  if (row.archivedAt !== null) return 'The flag has been archived';
  return undefined;
}
