import { z } from 'zod';

/**
 * Feature import data (importTogglesSchema): what an export produced, to be imported into a project and
 * environment. Only what validation reads is checked; the rest of each record passes through.
 */
const NamedRecord = z.looseObject({ name: z.string().min(1) });

export const ImportToggles = z.object({
  project: z.string().min(1),
  environment: z.string().min(1),
  data: z.looseObject({
    features: z.array(NamedRecord),
    featureStrategies: z.array(z.looseObject({
      name: z.string().min(1),
      featureName: z.string().optional(),
      segments: z.array(z.number().int()).optional(),
    })),
    featureEnvironments: z.array(z.looseObject({
      name: z.string().optional(),
      featureName: z.string().optional(),
      enabled: z.boolean().optional(),
      variants: z.array(z.unknown()).optional(),
    })).optional(),
    contextFields: z.array(z.looseObject({
      name: z.string().min(1),
      legalValues: z.array(z.looseObject({ value: z.string() })).optional(),
    })).optional(),
    featureTags: z.array(z.looseObject({ featureName: z.string(), tagType: z.string().optional(), tagValue: z.string() })).optional(),
    segments: z.array(z.looseObject({ id: z.number().int(), name: z.string().optional() })).optional(),
    tagTypes: z.array(NamedRecord),
    dependencies: z.array(z.looseObject({
      feature: z.string(),
      dependencies: z.array(z.looseObject({ feature: z.string() })),
    })).optional(),
  }),
});
export type ImportToggles = z.infer<typeof ImportToggles>;

/** One finding of an import validation: what is wrong and which items it concerns. */
export const ImportValidateItem = z.object({ message: z.string(), affectedItems: z.array(z.string()) });
export type ImportValidateItem = z.infer<typeof ImportValidateItem>;

export const ImportValidateResult = z.object({
  errors: z.array(ImportValidateItem),
  warnings: z.array(ImportValidateItem),
  permissions: z.array(ImportValidateItem),
});
export type ImportValidateResult = z.infer<typeof ImportValidateResult>;
