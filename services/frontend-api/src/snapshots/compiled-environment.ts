import { createHash } from 'node:crypto';
import type { EnvironmentSnapshot } from '@bunting/contracts';
import { compileEngine, type CompiledFeature, type Engine, type VariantDefinition } from '@bunting/evaluation';

/**
 * One environment's snapshot, compiled once per change: the evaluation engine, each feature's fixed JSON
 * pieces for /api/frontend, and (built lazily, once per revision) the /api/client/features bodies.
 */
export type CompiledEnvironment = {
  environment: string;
  revision: number;
  snapshot: EnvironmentSnapshot;
  engine: Engine;
  /** Features a token may see, by its projects, in snapshot order. */
  visibleFeatures: (projects: readonly string[]) => readonly FrontendFeature[];
  /** Cached client payload bodies, keyed by the query they answer. */
  clientBodies: Map<string, string>;
};

export type FrontendFeature = {
  compiled: CompiledFeature;
  /** `{"name":...,"enabled":true,"variant":` */
  prefix: string;
  /** `,"impressionData":...}` */
  suffix: string;
  /** The variant JSON when the flag is on without a variant. */
  disabledVariant: string;
  variantJson: (variant: VariantDefinition) => string;
};

const DISABLED_VARIANT = '{"name":"disabled","enabled":false,"feature_enabled":true,"featureEnabled":true}';

function frontendFeature(compiled: CompiledFeature): FrontendFeature {
  const cache = new Map<VariantDefinition, string>();
  return {
    compiled,
    prefix: `{"name":${JSON.stringify(compiled.name)},"enabled":true,"variant":`,
    suffix: `,"impressionData":${compiled.impressionData}}`,
    disabledVariant: DISABLED_VARIANT,
    variantJson: (variant) => {
      let json = cache.get(variant);
      if (json === undefined) {
        json = JSON.stringify({
          name: variant.name,
          enabled: true,
          ...(variant.payload ? { payload: variant.payload } : {}),
          feature_enabled: true,
          featureEnabled: true,
        });
        cache.set(variant, json);
      }
      return json;
    },
  };
}

export function compileEnvironment(snapshot: EnvironmentSnapshot, revision: number, hostname: string): CompiledEnvironment {
  const engine = compileEngine(snapshot, { hostname });
  const all = engine.features.map(frontendFeature);
  const byProjects = new Map<string, readonly FrontendFeature[]>();
  return {
    environment: snapshot.environment,
    revision,
    snapshot,
    engine,
    visibleFeatures: (projects) => {
      if (projects.includes('*')) return all;
      const key = projects.join('\u0000');
      let visible = byProjects.get(key);
      if (!visible) {
        const allowed = new Set(projects);
        visible = all.filter((feature) => allowed.has(feature.compiled.project ?? ''));
        byProjects.set(key, visible);
      }
      return visible;
    },
    clientBodies: new Map(),
  };
}

/** A short, stable hash for ETags. */
export function shortHash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 8);
}
