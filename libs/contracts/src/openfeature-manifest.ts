import { z } from 'zod';
import { FeatureName } from './features.ts';

// The OpenFeature CLI's manifest API (open-feature/cli, api/v0/sync.yaml): a typed, default-carrying view of flags
// for pull, push and code generation. Unleash has no such types, so each flag's OpenFeature type, default value and
// display name are kept beside it; a flag made elsewhere gets them from its variants' payloads.

/** `float` is the manifest file's fifth type (schema/v0/flag-manifest.json); the v0 sync document lists four. */
export const ManifestFlagType = z.enum(['boolean', 'string', 'integer', 'float', 'object']);
export type ManifestFlagType = z.infer<typeof ManifestFlagType>;

export const ManifestDefaultValue = z.union([
  z.boolean(),
  z.string().max(10_000),
  z.number(),
  z.record(z.string(), z.unknown()),
]);
export type ManifestDefaultValue = z.infer<typeof ManifestDefaultValue>;

export const ManifestFlag = z.object({
  key: FeatureName,
  name: z.string().min(1).max(255).optional(),
  type: ManifestFlagType,
  description: z.string().max(2000).nullable().optional(),
  defaultValue: ManifestDefaultValue,
});
export type ManifestFlag = z.infer<typeof ManifestFlag>;

// Bodies: unknown keys are refused, as the sync document's additionalProperties: false says.
export const CreateManifestFlag = ManifestFlag.strict();
export type CreateManifestFlag = z.infer<typeof CreateManifestFlag>;
export const UpdateManifestFlag = ManifestFlag.extend({ defaultValue: ManifestDefaultValue.optional() }).strict();
export type UpdateManifestFlag = z.infer<typeof UpdateManifestFlag>;

export const ManifestQuery = z.object({
  /** Where a new flag goes: the token's one project, else `default`, unless named here. */
  project: z.string().min(1).max(255).optional(),
});

// Answers
export const ManifestEnvelope = z.object({ flags: z.array(ManifestFlag) });
export const ManifestFlagResponse = z.object({ flag: ManifestFlag, updatedAt: z.string() });
export const ManifestArchiveResponse = z.object({ message: z.string(), archivedAt: z.string().nullable() });
export const ManifestError = z.object({
  error: z.object({
    message: z.string(),
    status: z.number().int(),
    details: z
      .array(z.object({ field: z.string().optional(), code: z.string().optional(), message: z.string().optional() }))
      .optional(),
  }),
});
export type ManifestError = z.infer<typeof ManifestError>;
