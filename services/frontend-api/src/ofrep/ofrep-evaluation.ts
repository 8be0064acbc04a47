import type { ClientFeature } from '@bunting/contracts';
import type { Evaluation } from '@bunting/evaluation';

export type OfrepResult =
  | { key: string; value?: unknown; reason: string; variant: string; metadata: Record<string, string | boolean> }
  | { key: string; errorCode: string; errorDetails: string };

/** Strategies whose rollout reads the userId, which OFREP calls the targeting key. */
function needsTargetingKey(feature: ClientFeature): boolean {
  return (feature.strategies ?? []).some((strategy) => {
    const stickiness = String(strategy.parameters?.stickiness ?? '');
    return (
      strategy.name === 'userWithId' ||
      strategy.name === 'gradualRolloutUserId' ||
      (strategy.name === 'flexibleRollout' && stickiness === 'userId')
    );
  });
}

function hasVariants(feature: ClientFeature): boolean {
  return (
    (feature.variants?.length ?? 0) > 0 ||
    (feature.strategies ?? []).some((strategy) => (strategy.variants?.length ?? 0) > 0)
  );
}

/** A variant's payload as an OFREP value: strings and CSV as text, numbers as numbers, JSON parsed. */
function payloadValue(payload: { type: string; value: string }): { value: unknown } | { error: string } {
  switch (payload.type) {
    case 'number': {
      const number = Number(payload.value);
      return payload.value.trim() !== '' && Number.isFinite(number)
        ? { value: number }
        : { error: `payload "${payload.value}" is not a number` };
    }
    case 'json':
      try {
        return { value: JSON.parse(payload.value) };
      } catch {
        return { error: 'payload is not valid JSON' };
      }
    default:
      return { value: payload.value };
  }
}

/**
 * One flag's answer in OFREP terms (written down in the README):
 * - a flag without variants is a boolean: on is `true` (TARGETING_MATCH), off is `false` (DISABLED when the flag
 *   is off in the environment, DEFAULT when no strategy matched);
 * - a flag with variants answers the chosen variant's payload (SPLIT), typed by the payload; a variant without a
 *   payload answers `true`; when it is off it answers `false` like a boolean flag, which a typed provider call
 *   reports as TYPE_MISMATCH and answers with the code's default;
 * - off because a rollout on the userId found no targeting key: TARGETING_KEY_MISSING.
 */
export function ofrepResult(feature: ClientFeature, result: Evaluation, hasTargetingKey: boolean): OfrepResult {
  const key = feature.name;
  const metadata = {
    project: feature.project ?? '',
    flagType: feature.type ?? 'release',
    impressionData: feature.impressionData ?? false,
  };
  if (!result.enabled) {
    if (!feature.enabled) return { key, value: false, reason: 'DISABLED', variant: 'disabled', metadata };
    if (!hasTargetingKey && needsTargetingKey(feature)) {
      return {
        key,
        errorCode: 'TARGETING_KEY_MISSING',
        errorDetails: `${key} rolls out by userId: give a targetingKey`,
      };
    }
    return { key, value: false, reason: 'DEFAULT', variant: 'disabled', metadata };
  }
  const variant = result.variant;
  if (!variant)
    return { key, value: true, reason: 'TARGETING_MATCH', variant: hasVariants(feature) ? 'disabled' : 'on', metadata };
  if (!variant.payload) return { key, value: true, reason: 'SPLIT', variant: variant.name, metadata };
  const value = payloadValue(variant.payload);
  if ('error' in value) return { key, errorCode: 'PARSE_ERROR', errorDetails: `${key}: ${value.error}` };
  return { key, value: value.value, reason: 'SPLIT', variant: variant.name, metadata };
}
