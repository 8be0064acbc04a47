import { z } from 'zod';
import { ContextField } from './context-fields.ts';
import { Dependency } from './features.ts';
import { FeatureStrategy } from './strategies.ts';
import { Variant } from './variants.ts';

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
    featureStrategies: z.array(
      z.looseObject({
        name: z.string().min(1),
        featureName: z.string().optional(),
        segments: z.array(z.number().int()).optional(),
      }),
    ),
    featureEnvironments: z
      .array(
        z.looseObject({
          name: z.string().optional(),
          featureName: z.string().optional(),
          enabled: z.boolean().optional(),
          variants: z.array(z.unknown()).optional(),
        }),
      )
      .optional(),
    contextFields: z
      .array(
        z.looseObject({
          name: z.string().min(1),
          legalValues: z.array(z.looseObject({ value: z.string() })).optional(),
        }),
      )
      .optional(),
    featureTags: z
      .array(z.looseObject({ featureName: z.string(), tagType: z.string().optional(), tagValue: z.string() }))
      .optional(),
    segments: z.array(z.looseObject({ id: z.number().int(), name: z.string().optional() })).optional(),
    tagTypes: z.array(NamedRecord),
    dependencies: z
      .array(
        z.looseObject({
          feature: z.string(),
          dependencies: z.array(z.looseObject({ feature: z.string() })),
        }),
      )
      .optional(),
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

/** What to export (exportQuerySchema): flags named, tagged, or of a project, each with its configuration in one environment. */
export const ExportQuery = z
  .object({
    environment: z.string().min(1).max(100),
    downloadFile: z.boolean().optional(),
    features: z.array(z.string().min(1).max(255)).max(10_000).optional(),
    tag: z.string().min(1).max(255).optional(),
    project: z.string().min(1).max(255).optional(),
  })
  .refine((query) => query.features !== undefined || query.tag !== undefined || query.project !== undefined, {
    message: 'give features, tag or project',
    path: ['features'],
  });
export type ExportQuery = z.infer<typeof ExportQuery>;

/** exportResultSchema: the flags and everything their configuration in the environment refers to. */
export const ExportResult = z.object({
  features: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      description: z.string().nullable(),
      project: z.string(),
      stale: z.boolean(),
      impressionData: z.boolean(),
      archived: z.boolean(),
    }),
  ),
  featureStrategies: z.array(FeatureStrategy),
  featureEnvironments: z.array(
    z.object({
      enabled: z.boolean(),
      featureName: z.string(),
      environment: z.string(),
      variants: z.array(Variant),
      name: z.string(),
    }),
  ),
  contextFields: z.array(ContextField.omit({ createdAt: true, usedInFeatures: true, usedInProjects: true })),
  featureTags: z.array(z.object({ featureName: z.string(), tagType: z.string(), tagValue: z.string() })),
  segments: z.array(z.object({ id: z.number(), name: z.string() })),
  tagTypes: z.array(z.object({ name: z.string(), description: z.string().nullable(), icon: z.string().nullable() })),
  dependencies: z.array(z.object({ feature: z.string(), dependencies: z.array(Dependency) })),
});
export type ExportResult = z.infer<typeof ExportResult>;
