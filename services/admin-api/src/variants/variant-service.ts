import { z } from 'zod';
import { VariantInput, type PatchOperation, type Variant } from '@bunting/contracts';
import { ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import { requireFeature } from '../feature-state/feature-lookup.ts';
import { projectReadModel, requireProjectEnvironment } from '../projects/project-read-model.ts';
import { applyJsonPatch } from '../rules/json-patch.ts';
import { normalizeEnvironmentVariants } from '../rules/variant-weights.ts';

async function currentVariants(db: Queryable, featureName: string, environment: string): Promise<Variant[]> {
  return ((await environmentState.get(db, featureName, environment))?.variants ?? []) as Variant[];
}

export const variantService = {
  async get(db: Queryable, project: string, featureName: string, environment: string) {
    await requireFeature(db, project, featureName, { allowArchived: true });
    await requireProjectEnvironment(db, project, environment);
    return { version: 1 as const, variants: await currentVariants(db, featureName, environment) };
  },

  /** The deprecated feature-level variants come from the project's first production-type environment. */
  async getLegacy(db: Queryable, project: string, featureName: string) {
    await requireFeature(db, project, featureName, { allowArchived: true });
    const source = await projectReadModel.firstProductionEnvironment(db, project);
    return { version: 1 as const, variants: source ? await currentVariants(db, featureName, source) : [] };
  },

  async put(change: Change, project: string, featureName: string, environment: string, input: readonly VariantInput[]) {
    const feature = await requireFeature(change.tx, project, featureName, { forWrite: true });
    await requireProjectEnvironment(change.tx, project, environment);
    const before = await currentVariants(change.tx, featureName, environment);
    const variants = normalizeEnvironmentVariants(input);
    if (JSON.stringify(before) !== JSON.stringify(variants)) {
      await environmentState.setVariants(change.tx, featureName, environment, variants);
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

  async patch(
    change: Change,
    project: string,
    featureName: string,
    environment: string,
    operations: readonly PatchOperation[],
  ) {
    await requireFeature(change.tx, project, featureName);
    const before = await currentVariants(change.tx, featureName, environment);
    const parsed = z.array(VariantInput).max(100).safeParse(applyJsonPatch(before, operations));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw ValidationError.field(`variants.${issue.path.join('.')}`, issue.message);
    }
    return variantService.put(change, project, featureName, environment, parsed.data);
  },

  async putInEnvironments(
    change: Change,
    project: string,
    featureName: string,
    environments: readonly string[],
    input: readonly VariantInput[],
  ) {
    let result: { version: 1; variants: Variant[] } = { version: 1, variants: [] };
    for (const environment of environments)
      result = await variantService.put(change, project, featureName, environment, input);
    return result;
  },
};
