import { createHash } from 'node:crypto';
import type { ClientFeature } from '@bunting/contracts';
import type { CompiledFeature } from '@bunting/evaluation';

/**
 * Compiled flags shared between environments. 10,000 flags in three environments are mostly the same flag three
 * times, apart from their strategies' ids (which decide nothing), so an environment compiled after another lends
 * each equal flag (with its encoded answers) instead of holding its own, and points its own definition's parts at
 * the other's: together about two thirds of what the flags take.
 *
 * A flag is found by its definition object first (a delta keeps the objects of the flags it did not change, so a
 * change compiles one flag without looking at the others), then by name among the flags compiled in the same scope
 * (hostname and segments, since plans inline segment constraints), taken when equal but for the strategies' ids.
 * Nothing here keeps a flag alive: an environment that no longer holds it lets it go.
 */
export function createSharedFeatures() {
  const byObject = new WeakMap<ClientFeature, { scope: string; compiled: CompiledFeature }>();
  const byName = new Map<string, Map<string, WeakRef<CompiledFeature>>>();
  const forget = new FinalizationRegistry<{ scope: string; name: string }>(({ scope, name }) => {
    const names = byName.get(scope);
    if (names?.get(name)?.deref() !== undefined) return;
    names?.delete(name);
    if (names?.size === 0) byName.delete(scope);
  });

  return {
    /** The scope a snapshot's flags compile in: flags are lent only within one. */
    scopeOf(hostname: string, segments: unknown): string {
      return createHash('sha1').update(hostname).update('\u0000').update(JSON.stringify(segments)).digest('base64url');
    },
    lend(scope: string, feature: ClientFeature): CompiledFeature | undefined {
      const held = byObject.get(feature);
      if (held && held.scope === scope) return held.compiled;
      const found = byName.get(scope)?.get(feature.name)?.deref();
      if (!found || !equalButIds(feature, found.source)) return undefined;
      byObject.set(feature, { scope, compiled: found });
      holdOnce(feature, found.source);
      return found;
    },
    keep(scope: string, feature: ClientFeature, compiled: CompiledFeature): void {
      byObject.set(feature, { scope, compiled });
      const names = byName.get(scope) ?? byName.set(scope, new Map()).get(scope)!;
      names.set(feature.name, new WeakRef(compiled));
      forget.register(compiled, { scope, name: feature.name });
    },
  };
}
export type SharedFeatures = ReturnType<typeof createSharedFeatures>;

/** Two definitions equal in everything but their strategies' ids. */
function equalButIds(a: ClientFeature, b: ClientFeature): boolean {
  const left = a as unknown as Record<string, unknown>;
  const right = b as unknown as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (key === 'strategies') continue;
    if (!equalJson(left[key], right[key])) return false;
  }
  const strategies = a.strategies ?? [];
  const others = b.strategies ?? [];
  if (strategies.length !== others.length || (a.strategies === undefined) !== (b.strategies === undefined))
    return false;
  for (let index = 0; index < strategies.length; index += 1) {
    const strategy = strategies[index] as unknown as Record<string, unknown>;
    const other = others[index] as unknown as Record<string, unknown>;
    const strategyKeys = Object.keys(strategy);
    if (strategyKeys.length !== Object.keys(other).length) return false;
    for (const key of strategyKeys) if (key !== 'id' && !equalJson(strategy[key], other[key])) return false;
  }
  return true;
}

function equalJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!equalJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) if (!Object.hasOwn(right, key) || !equalJson(left[key], right[key])) return false;
  return true;
}

/**
 * Points `feature`'s parts at the equal parts of `like` (the same flag in another environment), so the definition
 * this environment keeps for its own answers (/api/client/features, with its strategies' ids) adds little beside it.
 * Safe because definitions are never changed once parsed, and they are equal but for the ids.
 */
function holdOnce(feature: ClientFeature, like: ClientFeature): void {
  const into = feature as unknown as Record<string, unknown>;
  const from = like as unknown as Record<string, unknown>;
  for (const key of Object.keys(into)) if (key !== 'strategies') into[key] = from[key];
  const strategies = feature.strategies ?? [];
  const likeStrategies = like.strategies ?? [];
  for (let index = 0; index < strategies.length; index += 1) {
    const strategy = strategies[index] as unknown as Record<string, unknown>;
    const likeStrategy = likeStrategies[index] as unknown as Record<string, unknown>;
    for (const key of Object.keys(strategy)) if (key !== 'id') strategy[key] = likeStrategy[key];
  }
}
