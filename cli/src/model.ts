import { CONSTRAINT_OPERATORS, FeatureName, SINGLE_VALUE_OPERATORS, VariantPayload } from '@bunting/contracts';
import { z } from 'zod';

// The declarative file: one project, its flags (keyed by name, so a pull request's diff reads as the flag's own) and
// the segments its strategies use. Unknown keys are refused everywhere, so a typo fails `plan` instead of being lost.

const NUMBER = /^-?\d+(\.\d+)?$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

export const Constraint = z
  .strictObject({
    contextName: z.string().min(1).max(100),
    operator: z.enum(CONSTRAINT_OPERATORS),
    values: z.array(z.string().min(1).max(1000)).max(1000).optional(),
    value: z.string().min(1).max(1000).optional(),
    caseInsensitive: z.boolean().optional(),
    inverted: z.boolean().optional(),
  })
  .superRefine((constraint, context) => {
    const single = SINGLE_VALUE_OPERATORS.has(constraint.operator);
    if (single && constraint.value === undefined)
      context.addIssue({ code: 'custom', path: ['value'], message: `${constraint.operator} needs a value` });
    if (!single && (constraint.values?.length ?? 0) === 0)
      context.addIssue({ code: 'custom', path: ['values'], message: `${constraint.operator} needs values` });
    const value = constraint.value;
    if (value === undefined) return;
    if (constraint.operator.startsWith('NUM_') && !NUMBER.test(value))
      context.addIssue({ code: 'custom', path: ['value'], message: `${value} is not a number` });
    if (constraint.operator.startsWith('DATE_') && Number.isNaN(Date.parse(value)))
      context.addIssue({ code: 'custom', path: ['value'], message: `${value} is not a date` });
    if (constraint.operator.startsWith('SEMVER_') && !SEMVER.test(value))
      context.addIssue({ code: 'custom', path: ['value'], message: `${value} is not a semantic version` });
  });
export type Constraint = z.infer<typeof Constraint>;

const Variant = z.strictObject({
  name: z.string().min(1).max(255),
  /** Out of 1000; only fixed weights are kept, variable ones share what is left. */
  weight: z.number().int().min(0).max(1000).optional(),
  weightType: z.enum(['variable', 'fix']).optional(),
  stickiness: z.string().min(1).max(100).optional(),
  payload: VariantPayload.strict().optional(),
});

const EnvironmentVariant = Variant.extend({
  overrides: z.array(z.strictObject({ contextName: z.string().min(1), values: z.array(z.string()).min(1) })).optional(),
});
export type EnvironmentVariant = z.infer<typeof EnvironmentVariant>;

export const Strategy = z.strictObject({
  name: z.string().min(1).max(255),
  title: z.string().max(255).optional(),
  disabled: z.boolean().optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  constraints: z.array(Constraint).max(100).optional(),
  /** Segments by name. */
  segments: z.array(z.string().min(1)).optional(),
  variants: z.array(Variant).max(100).optional(),
});
export type Strategy = z.infer<typeof Strategy>;

export const FlagEnvironment = z.strictObject({
  enabled: z.boolean(),
  strategies: z.array(Strategy).max(100).optional(),
  variants: z.array(EnvironmentVariant).max(100).optional(),
});
export type FlagEnvironment = z.infer<typeof FlagEnvironment>;

export const Dependency = z.strictObject({
  feature: FeatureName,
  enabled: z.boolean().optional(),
  variants: z.array(z.string()).optional(),
});

export const Flag = z.strictObject({
  type: z.string().min(1).max(100).optional(),
  description: z.string().max(2000).optional(),
  impressionData: z.boolean().optional(),
  /** Tags as `type:value`. */
  tags: z.array(z.string().regex(/^[^:]+:.+$/, 'a tag is written type:value')).optional(),
  /** Flags this one needs on (its parents). */
  dependencies: z.array(Dependency).max(1).optional(),
  environments: z.record(z.string(), FlagEnvironment).optional(),
});
export type Flag = z.infer<typeof Flag>;

export const Segment = z.strictObject({
  description: z.string().max(2000).optional(),
  constraints: z.array(Constraint).max(1000),
});
export type Segment = z.infer<typeof Segment>;

export const ContextField = z.strictObject({
  description: z.string().max(1000).optional(),
  /** Whether gradual rollouts may stick to it. */
  stickiness: z.boolean().optional(),
  legalValues: z
    .array(z.strictObject({ value: z.string().min(1).max(100), description: z.string().max(1000).optional() }))
    .max(1000)
    .optional(),
});
export type ContextField = z.infer<typeof ContextField>;

/** The context fields Unleash and Bunting both come with: not written to files, never changed by them. */
export const STANDARD_CONTEXT_FIELDS: ReadonlySet<string> = new Set([
  'appName',
  'currentTime',
  'environment',
  'remoteAddress',
  'sessionId',
  'userId',
]);

/** A release template of the instance: milestones in order, each with its strategies and how long it runs. */
export const ReleaseTemplate = z.strictObject({
  description: z.string().max(1000).optional(),
  milestones: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(255),
        /** Minutes before the next milestone starts by itself; none: someone starts it. */
        intervalMinutes: z.number().int().min(1).max(525_600).optional(),
        strategies: z.array(Strategy).max(30).optional(),
      }),
    )
    .max(30),
});
export type ReleaseTemplate = z.infer<typeof ReleaseTemplate>;

export const ProjectFile = z
  .strictObject({
    /** JSON Schema for editors; not part of the project. */
    $schema: z.string().optional(),
    /** The project; a file without one holds only the instance's context fields. */
    project: z.string().min(1).max(255).optional(),
    /** The environments the project uses (apply adds those missing; with --prune it removes the others). */
    environments: z.array(z.string().min(1).max(100)).optional(),
    /** The environments that require change requests, with the approvals each needs; the others do not. */
    changeRequests: z
      .record(z.string().min(1).max(100), z.strictObject({ requiredApprovals: z.number().int().min(1).max(10) }))
      .optional(),
    flags: z.record(FeatureName, Flag).optional(),
    segments: z.record(z.string().min(1).max(255), Segment).optional(),
    /** The instance's own context fields (one file holds them). */
    contextFields: z.record(z.string().min(1).max(100), ContextField).optional(),
    /** The instance's release templates, by name (the file holding the context fields, or one without a project). */
    releaseTemplates: z.record(z.string().min(1).max(255), ReleaseTemplate).optional(),
  })
  .superRefine((file, context) => {
    if (file.project !== undefined) return;
    for (const key of ['environments', 'changeRequests', 'flags', 'segments'] as const)
      if (file[key] !== undefined)
        context.addIssue({ code: 'custom', path: [key], message: `${key} belong to a project: name it with project:` });
  });
export type ProjectFile = z.infer<typeof ProjectFile>;
