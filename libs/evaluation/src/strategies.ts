import type { ClientStrategy } from '@bunting/contracts';
import { compileConstraints, parseRange, type Check } from './constraints.ts';
import { contextValue, type Context } from './context.ts';
import { normalizedValue } from './hashing.ts';
import type { Random, VariantDefinition } from './variants.ts';

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

function rolloutCheck(percent: number, id: string | undefined, groupId: string): boolean {
  if (id === undefined) return false;
  return percent > 0 && normalizedValue(id, groupId) <= percent;
}

/** The built-in strategies; an unknown name evaluates to false. */
function compileActivation(strategy: ClientStrategy, featureName: string, options: StrategyOptions): Check {
  const parameters: Parameters = strategy.parameters ?? {};
  switch (strategy.name) {
    case 'default':
      return () => true;
    case 'userWithId': {
      const ids = new Set(text(parameters, 'userIds').split(/\s*,\s*/));
      return (context) => typeof context.userId === 'string' && ids.has(context.userId);
    }
    case 'flexibleRollout': {
      const rollout = percentage(parameters, 'rollout');
      const groupId = text(parameters, 'groupId') || featureName;
      const stickiness = text(parameters, 'stickiness') || 'default';
      return (context) => {
        let id: string | undefined;
        if (stickiness === 'default') {
          id = (context.userId as string) || (context.sessionId as string) || randomBucket(options.random);
        } else if (stickiness === 'random') {
          id = randomBucket(options.random);
        } else if (stickiness === 'userId' || stickiness === 'sessionId') {
          id = (context[stickiness] as string) || undefined;
        } else {
          const value = contextValue(context, stickiness);
          id = value === undefined ? undefined : String(value);
        }
        return rolloutCheck(rollout, id, groupId);
      };
    }
    case 'gradualRolloutUserId':
    case 'gradualRolloutSessionId': {
      const percent = percentage(parameters, 'percentage');
      const groupId = text(parameters, 'groupId');
      const field = strategy.name === 'gradualRolloutUserId' ? 'userId' : 'sessionId';
      return (context) => rolloutCheck(percent, (context[field] as string) || undefined, groupId);
    }
    case 'gradualRolloutRandom': {
      const percent = percentage(parameters, 'percentage');
      return () => percent >= Math.floor(options.random() * 100) + 1;
    }
    case 'remoteAddress': {
      const ranges = text(parameters, 'IPs').split(/\s*,\s*/).map(parseRange).filter((range) => range !== null);
      return (context) => {
        const address = context.remoteAddress;
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

export type CompiledStrategy = {
  isOn: Check;
  variants: VariantDefinition[];
  groupId: string;
  stickiness: string | undefined;
};

/** A strategy with its own and its segments' constraints; a missing segment makes it false. */
export function compileStrategy(
  strategy: ClientStrategy,
  featureName: string,
  segments: ReadonlyMap<number, ClientStrategy['constraints']>,
  options: StrategyOptions,
): CompiledStrategy {
  const segmentConstraints = (strategy.segments ?? []).map((id) => segments.get(id));
  const missingSegment = segmentConstraints.some((constraints) => constraints === undefined);
  const constraints = compileConstraints([...(strategy.constraints ?? []), ...segmentConstraints.flatMap((list) => list ?? [])]);
  const activation = compileActivation(strategy, featureName, options);
  const parameters: Parameters = strategy.parameters ?? {};
  const variants = (strategy.variants ?? []) as VariantDefinition[];
  return {
    isOn: missingSegment ? () => false : (context) => constraints(context) && activation(context),
    variants,
    groupId: text(parameters, 'groupId') || featureName,
    stickiness: variants[0]?.stickiness || text(parameters, 'stickiness') || undefined,
  };
}
