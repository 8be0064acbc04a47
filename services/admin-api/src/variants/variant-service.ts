import { z } from 'zod';
import { VariantInput, type PatchOperation, type Variant } from '@bunting/contracts';
import { ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { requireFeature } from '../features/feature-lookup.ts';
import { featureEnvironmentStore } from '../features/feature-store.ts';
import { applyJsonPatch } from '../features/json-patch.ts';
import { requireProjectEnvironment } from '../strategies/strategy-service.ts';
import { normalizeEnvironmentVariants } from './variant-weights.ts';

async function currentVariants(db: Queryable, featureName: string, environment: string): Promise<Variant[]> {
  return ((await featureEnvironmentStore.get(db, featureName, environment))?.variants ?? []) as Variant[];
}

export const variantService = {
  async get(db: Queryable, project: string, featureName: string, environment: string) {
    await requireFeature(db, project, featureName, { allowArchived: true });
    await requireProjectEnvironment(db, project, environment);
    return { version: 1 as const, variants: await currentVariants(db, featureName, environment) };
  },

  /** Seed endpoint 8: the deprecated feature-level variants come from the project's first production-type environment. */
  async getLegacy(db: Queryable, project: string, featureName: string) {
    await requireFeature(db, project, featureName, { allowArchived: true });
    const source = await db.maybeOneFirst(sql.type(z.object({ name: z.string() }))`
      select e.name from admin.project_environments pe join admin.environments e on e.name = pe.environment
      where pe.project_id = ${project} and e.type = 'production' order by e.sort_order, e.name limit 1`);
    return { version: 1 as const, variants: source ? await currentVariants(db, featureName, source) : [] };
  },

  async put(change: Change, project: string, featureName: string, environment: string, input: readonly VariantInput[]) {
    const feature = await requireFeature(change.tx, project, featureName, { forWrite: true });
    await requireProjectEnvironment(change.tx, project, environment);
    const before = await currentVariants(change.tx, featureName, environment);
    const variants = normalizeEnvironmentVariants(input);
    if (JSON.stringify(before) !== JSON.stringify(variants)) {
      await featureEnvironmentStore.setVariants(change.tx, featureName, environment, variants);
      change.emit({
        type: 'feature-environment-variants-updated',
        project: feature.project,
        featureName,
        environment,
        data: { variants },
        preData: { variants: before },
      });
    }
    return { version: 1 as const, variants };
  },

  async patch(change: Change, project: string, featureName: string, environment: string, operations: readonly PatchOperation[]) {
    await requireFeature(change.tx, project, featureName);
    const before = await currentVariants(change.tx, featureName, environment);
    const parsed = z.array(VariantInput).max(100).safeParse(applyJsonPatch(before, operations));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw ValidationError.field(`variants.${issue.path.join('.')}`, issue.message);
    }
    return variantService.put(change, project, featureName, environment, parsed.data);
  },

  async putInEnvironments(change: Change, project: string, featureName: string, environments: readonly string[], input: readonly VariantInput[]) {
    let result: { version: 1; variants: Variant[] } = { version: 1, variants: [] };
    for (const environment of environments) result = await variantService.put(change, project, featureName, environment, input);
    return result;
  },
};
