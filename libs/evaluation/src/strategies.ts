import type { ClientStrategy, Constraint } from '@bunting/contracts';
import { ConstraintList, ConstraintPlan, parseRange, type Check } from './constraints.ts';
import type { PreparedContext } from './context.ts';
import { HashPrefix, bucketWithPrefix, type HashKey } from './hashing.ts';
import { VariantPlan, type Random, type VariantDefinition } from './variants.ts';

export type StrategyOptions = {
  hostname: string;
  random: Random;
  /** Compiled constraint lists by their JSON, so flags with the same constraints share one (fewer objects per request). */
  sharedConstraints?: Map<string, ConstraintList>;
};

function constraintList(constraints: readonly Constraint[], options: StrategyOptions): ConstraintList | null {
  if (constraints.length === 0) return null;
  const key = JSON.stringify(constraints);
  const shared = options.sharedConstraints?.get(key);
  if (shared) return shared;
  const list = new ConstraintList(constraints.map((constraint) => new ConstraintPlan(constraint)));
  options.sharedConstraints?.set(key, list);
  return list;
}

type Parameters = Record<string, string | number | boolean | undefined>;

function text(parameters: Parameters, name: string): string {
  const value = parameters[name];
  return value === undefined || value === null ? '' : String(value);
}

function percentage(parameters: Parameters, name: string): number {
  return Number(text(parameters, name));
}

function randomBucket(random: Random): string {
  return String(Math.round(random() * 10_000) + 1);
}

/** Whether an id falls within a percentage of a group: (murmur3("<groupId>:<id>") % 100) + 1 <= percent. */
function rollout(percent: number, groupId: string): (context: PreparedContext, id: string | undefined) => boolean {
  if (!(percent > 0)) return () => false;
  const prefix = new HashPrefix(`${groupId}:`, 0);
  return (context, id) => id !== undefined && bucketWithPrefix(prefix, context.hashKey(id), 100) <= percent;
}

/** The strategies other than default and flexibleRollout (which StrategyPlan evaluates inline); an unknown name evaluates to false. */
function compileActivation(strategy: ClientStrategy, featureName: string, options: StrategyOptions): Check {
  const parameters: Parameters = strategy.parameters ?? {};
  switch (strategy.name) {
    case 'userWithId': {
      const ids = new Set(text(parameters, 'userIds').split(/\s*,\s*/));
      return (context) => typeof context.raw.userId === 'string' && ids.has(context.raw.userId);
    }
    case 'gradualRolloutUserId':
    case 'gradualRolloutSessionId': {
      const inRollout = rollout(percentage(parameters, 'percentage'), text(parameters, 'groupId'));
      const field = strategy.name === 'gradualRolloutUserId' ? 'userId' : 'sessionId';
      return (context) => inRollout(context, context.raw[field] || undefined);
    }
    case 'gradualRolloutRandom': {
      const percent = percentage(parameters, 'percentage');
      return () => percent >= Math.floor(options.random() * 100) + 1;
    }
    case 'remoteAddress': {
      const ranges = text(parameters, 'IPs')
        .split(/\s*,\s*/)
        .map(parseRange)
        .filter((range) => range !== null);
      return (context) => {
        const address = context.raw.remoteAddress;
        if (typeof address !== 'string' || address === '') return false;
        return ranges.some((range) => {
          try {
            return range.contains(address);
          } catch {
            return false;
          }
        });
      };
    }
    case 'applicationHostname': {
      const hosts = new Set(
        text(parameters, 'hostNames')
          .toLowerCase()
          .split(/\s*,\s*/),
      );
      const hostname = options.hostname.toLowerCase();
      // The SDK compares the host it runs on; on the server that is the server's own name.
      const on = hosts.has(hostname);
      return () => on;
    }
    default:
      return () => false;
  }
}

export const Activation = { Always: 0, FlexibleRollout: 1, Other: 2 } as const;
export type Activation = (typeof Activation)[keyof typeof Activation];

export const Stickiness = { Default: 0, Random: 1, Field: 2 } as const;
export type Stickiness = (typeof Stickiness)[keyof typeof Stickiness];

function stickinessOf(name: string): Stickiness {
  switch (name) {
    case 'default':
      return Stickiness.Default;
    case 'random':
      return Stickiness.Random;
    default:
      return Stickiness.Field;
  }
}

/**
 * A strategy with its own and its segments' constraints, compiled into one object shape that strategyIsOn
 * reads: the default and flexibleRollout strategies (nearly all of them) inline, the others through a check.
 * A missing segment makes it false.
 */
/** The check of a strategy whose activation needs none: one function for all of them. */
const PASSES: Check = () => true;

export class StrategyPlan<T> {
  readonly blocked: boolean;
  /** Null when the strategy has no constraints. */
  readonly constraints: ConstraintList | null;
  readonly activation: Activation;
  readonly other: Check;
  /** flexibleRollout: the percentage, the hash state of "<groupId>:" and where the id comes from. */
  readonly percent: number;
  /** The hash state of "<groupId>:" (see HashPrefix). */
  readonly prefix: HashPrefix;
  readonly stickiness: Stickiness;
  readonly stickinessField: string;
  readonly random: Random;
  /** The strategy's variants; null when it has none. */
  readonly variants: VariantPlan<T> | null;

  constructor(
    strategy: ClientStrategy,
    featureName: string,
    segments: ReadonlyMap<number, ClientStrategy['constraints']>,
    options: StrategyOptions,
    answerFor: (variant: VariantDefinition) => T,
  ) {
    const segmentConstraints = (strategy.segments ?? []).map((id) => segments.get(id));
    this.blocked = segmentConstraints.some((constraints) => constraints === undefined);
    this.constraints = constraintList(
      [...(strategy.constraints ?? []), ...segmentConstraints.flatMap((list) => list ?? [])],
      options,
    );
    const parameters: Parameters = strategy.parameters ?? {};
    const groupId = text(parameters, 'groupId') || featureName;
    // The SDKs hash strategy variants on the groupId parameter as stored: a strategy without one (default,
    // remoteAddress...) hashes "undefined:<id>", whereas its rollout falls back to the flag's name.
    const variantGroupId =
      parameters.groupId === undefined || parameters.groupId === null ? 'undefined' : String(parameters.groupId);
    this.activation =
      strategy.name === 'default'
        ? Activation.Always
        : strategy.name === 'flexibleRollout'
          ? Activation.FlexibleRollout
          : Activation.Other;
    this.other = this.activation === Activation.Other ? compileActivation(strategy, featureName, options) : PASSES;
    this.percent = percentage(parameters, 'rollout');
    this.prefix = new HashPrefix(`${groupId}:`, 0);
    const stickiness = text(parameters, 'stickiness') || 'default';
    this.stickiness = stickinessOf(stickiness);
    this.stickinessField = stickiness;
    this.random = options.random;
    const variants = (strategy.variants ?? []) as VariantDefinition[];
    const variantStickiness = variants[0]?.stickiness || text(parameters, 'stickiness') || undefined;
    this.variants =
      variants.length > 0
        ? new VariantPlan(variants, variantGroupId, variantStickiness, options.random, variants.map(answerFor))
        : null;
  }
}

/** The key of the id a flexibleRollout hashes, by its stickiness; undefined when the context lacks it. */
function stickyKey<T>(plan: StrategyPlan<T>, context: PreparedContext): HashKey | undefined {
  switch (plan.stickiness) {
    case Stickiness.Default:
      return context.defaultRolloutKey() ?? context.hashKey(randomBucket(plan.random));
    case Stickiness.Random:
      return context.hashKey(randomBucket(plan.random));
    default: {
      // Any named field (userId and sessionId included) is read root first, then properties; empty means off.
      const id = context.fields.get(plan.stickinessField);
      return id ? context.hashKey(id) : undefined;
    }
  }
}

export function strategyIsOn<T>(plan: StrategyPlan<T>, context: PreparedContext): boolean {
  if (plan.blocked) return false;
  if (plan.constraints !== null && !plan.constraints.holds(context)) return false;
  switch (plan.activation) {
    case Activation.Always:
      return true;
    case Activation.FlexibleRollout: {
      if (!(plan.percent > 0)) return false;
      const key = stickyKey(plan, context);
      return key !== undefined && bucketWithPrefix(plan.prefix, key, 100) <= plan.percent;
    }
    default:
      return plan.other(context);
  }
}
