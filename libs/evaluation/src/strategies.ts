import type { ClientStrategy } from '@bunting/contracts';
import { compileConstraints, parseRange, type Check } from './constraints.ts';
import type { PreparedContext } from './context.ts';
import { prefixedMurmur3 } from './hashing.ts';
import { compileVariantSelection, type Random, type VariantDefinition } from './variants.ts';

export type StrategyOptions = { hostname: string; random: Random };

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
function rollout(percent: number, groupId: string): (id: string | undefined) => boolean {
  if (!(percent > 0)) return () => false;
  const hash = prefixedMurmur3(`${groupId}:`, 0);
  return (id) => id !== undefined && (hash(id) % 100) + 1 <= percent;
}

/** The built-in strategies; an unknown name evaluates to false. */
function compileActivation(strategy: ClientStrategy, featureName: string, options: StrategyOptions): Check {
  const parameters: Parameters = strategy.parameters ?? {};
  switch (strategy.name) {
    case 'default':
      return () => true;
    case 'userWithId': {
      const ids = new Set(text(parameters, 'userIds').split(/\s*,\s*/));
      return (context) => typeof context.raw.userId === 'string' && ids.has(context.raw.userId);
    }
    case 'flexibleRollout': {
      const inRollout = rollout(percentage(parameters, 'rollout'), text(parameters, 'groupId') || featureName);
      const stickiness = text(parameters, 'stickiness') || 'default';
      return (context) => {
        const raw = context.raw;
        let id: string | undefined;
        if (stickiness === 'default') {
          id = (raw.userId as string) || (raw.sessionId as string) || randomBucket(options.random);
        } else if (stickiness === 'random') {
          id = randomBucket(options.random);
        } else if (stickiness === 'userId') {
          id = (raw.userId as string) || undefined;
        } else if (stickiness === 'sessionId') {
          id = (raw.sessionId as string) || undefined;
        } else {
          const value = context.value(stickiness);
          id = value === undefined ? undefined : String(value);
        }
        return inRollout(id === undefined || typeof id === 'string' ? id : String(id));
      };
    }
    case 'gradualRolloutUserId':
    case 'gradualRolloutSessionId': {
      const inRollout = rollout(percentage(parameters, 'percentage'), text(parameters, 'groupId'));
      const field = strategy.name === 'gradualRolloutUserId' ? 'userId' : 'sessionId';
      return (context) => inRollout((context.raw[field] as string) || undefined);
    }
    case 'gradualRolloutRandom': {
      const percent = percentage(parameters, 'percentage');
      return () => percent >= Math.floor(options.random() * 100) + 1;
    }
    case 'remoteAddress': {
      const ranges = text(parameters, 'IPs').split(/\s*,\s*/).map(parseRange).filter((range) => range !== null);
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
      const hosts = new Set(text(parameters, 'hostNames').toLowerCase().split(/\s*,\s*/));
      const hostname = options.hostname.toLowerCase();
      // The SDK compares the host it runs on; on the server that is the server's own name.
      const on = hosts.has(hostname);
      return () => on;
    }
    default:
      return () => false;
  }
}

export type CompiledStrategy<T> = {
  isOn: Check;
  /** Picks the strategy variant's answer; undefined when the strategy has no variants. */
  selectVariant: ((context: PreparedContext) => T | undefined) | undefined;
};

/** A strategy with its own and its segments' constraints; a missing segment makes it false. */
export function compileStrategy<T>(
  strategy: ClientStrategy,
  featureName: string,
  segments: ReadonlyMap<number, ClientStrategy['constraints']>,
  options: StrategyOptions,
  answerFor: (variant: VariantDefinition) => T,
): CompiledStrategy<T> {
  const segmentConstraints = (strategy.segments ?? []).map((id) => segments.get(id));
  const missingSegment = segmentConstraints.some((constraints) => constraints === undefined);
  const allConstraints = [...(strategy.constraints ?? []), ...segmentConstraints.flatMap((list) => list ?? [])];
  const constraints = compileConstraints(allConstraints);
  const activation = compileActivation(strategy, featureName, options);
  const isOn: Check = missingSegment ? () => false
    : allConstraints.length === 0 ? activation
      : (context) => constraints(context) && activation(context);
  const parameters: Parameters = strategy.parameters ?? {};
  const variants = (strategy.variants ?? []) as VariantDefinition[];
  const groupId = text(parameters, 'groupId') || featureName;
  const stickiness = variants[0]?.stickiness || text(parameters, 'stickiness') || undefined;
  return {
    isOn,
    selectVariant: variants.length > 0
      ? compileVariantSelection(variants, groupId, stickiness, options.random, variants.map(answerFor))
      : undefined,
  };
}
