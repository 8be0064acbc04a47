import { z } from 'zod';
import { Constraint } from './constraints.ts';
import { FeatureStrategy } from './strategies.ts';
import { Variant, VariantPayload } from './variants.ts';

const Projects = z.union([z.literal('*'), z.array(z.string().min(1).max(255)).max(1000)]).optional();

/** sdkContextSchema: appName is required; any other top-level field is a custom property, as SDKs treat it. */
export const SdkContext = z
  .object({
    appName: z.string().min(1).max(255),
    userId: z.string().max(1000).optional(),
    sessionId: z.string().max(1000).optional(),
    remoteAddress: z.string().max(100).optional(),
    currentTime: z.string().max(100).optional(),
    environment: z.string().max(100).optional(),
    properties: z.record(z.string(), z.string().max(1000)).optional(),
  })
  .catchall(z.string().max(1000));

/** playgroundRequestSchema: one environment, some projects (all by default), one context. */
export const PlaygroundRequest = z.object({
  environment: z.string().min(1).max(100),
  projects: Projects,
  context: SdkContext,
});
/** advancedPlaygroundRequestSchema: several environments; comma-separated context values are combined. */
export const AdvancedPlaygroundRequest = z.object({
  environments: z.array(z.string().min(1).max(100)).min(1).max(20),
  projects: Projects,
  context: SdkContext,
});

/** Why a flag answers as it does for one context: each strategy's own check, each constraint, each segment. */
export const ExplainedConstraint = Constraint.extend({ result: z.boolean() });
export type ExplainedConstraint = z.infer<typeof ExplainedConstraint>;
export const ExplainedSegment = z.object({
  id: z.number(),
  name: z.string(),
  result: z.boolean(),
  constraints: z.array(ExplainedConstraint),
});
export type ExplainedSegment = z.infer<typeof ExplainedSegment>;
export const ExplainedStrategy = FeatureStrategy.pick({
  id: true,
  name: true,
  disabled: true,
  parameters: true,
}).extend({
  title: z.string().optional(),
  constraints: z.array(ExplainedConstraint),
  segments: z.array(ExplainedSegment),
  result: z.union([
    z.object({ evaluationStatus: z.literal('complete'), enabled: z.boolean() }),
    z.object({ evaluationStatus: z.literal('incomplete'), enabled: z.union([z.literal(false), z.literal('unknown')]) }),
  ]),
});
export type ExplainedStrategy = z.infer<typeof ExplainedStrategy>;
export const PlaygroundVariant = z.object({
  name: z.string(),
  enabled: z.boolean(),
  payload: VariantPayload.optional(),
  feature_enabled: z.boolean(),
});
export type PlaygroundVariant = z.infer<typeof PlaygroundVariant>;
export const ExplainedFeature = z.object({
  strategies: z.object({ result: z.union([z.literal('unknown'), z.boolean()]), data: z.array(ExplainedStrategy) }),
  isEnabledInCurrentEnvironment: z.boolean(),
  isEnabled: z.boolean(),
  hasUnsatisfiedDependency: z.boolean(),
  variant: PlaygroundVariant,
});
export type ExplainedFeature = z.infer<typeof ExplainedFeature>;
/** One flag's answer in one environment for one of the advanced playground's contexts. */
export const AdvancedPlaygroundEvaluation = ExplainedFeature.extend({
  name: z.string(),
  projectId: z.string(),
  environment: z.string(),
  variants: z.array(z.unknown()),
  context: z.record(z.string(), z.unknown()),
});
export type AdvancedPlaygroundEvaluation = z.infer<typeof AdvancedPlaygroundEvaluation>;
export type AdvancedPlaygroundResult = {
  input: z.infer<typeof AdvancedPlaygroundRequest>;
  features: { name: string; projectId: string; environments: Record<string, AdvancedPlaygroundEvaluation[]> }[];
};

// Answers: what the routes of this resource send.

/** The context as the playground echoes it: the request's, as strings. */
const ContextAnswer = z
  .object({
    appName: z.string(),
    userId: z.string().optional(),
    sessionId: z.string().optional(),
    remoteAddress: z.string().optional(),
    currentTime: z.string().optional(),
    environment: z.string().optional(),
    properties: z.record(z.string(), z.string()).optional(),
  })
  .catchall(z.string());
const ProjectsAnswer = z.union([z.array(z.string()), z.literal('*')]).optional();

/** POST /api/admin/playground */
export const PlaygroundAnswer = z.object({
  input: z.object({ environment: z.string(), context: ContextAnswer, projects: ProjectsAnswer }),
  features: z.array(
    ExplainedFeature.extend({
      variants: z.array(Variant.partial({ weightType: true, stickiness: true })),
      name: z.string(),
      projectId: z.string(),
    }),
  ),
});

/** POST /api/admin/playground/advanced */
export const AdvancedPlaygroundAnswer = z.object({
  input: z.object({ environments: z.array(z.string()), context: ContextAnswer, projects: ProjectsAnswer }),
  features: z.array(
    z.object({
      name: z.string(),
      projectId: z.string(),
      environments: z.record(z.string(), z.array(AdvancedPlaygroundEvaluation)),
    }),
  ),
});
