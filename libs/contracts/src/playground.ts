import { z } from 'zod';
import type { Constraint } from './constraints.ts';
import type { VariantPayload } from './variants.ts';

const Projects = z.union([z.literal('*'), z.array(z.string().min(1).max(255)).max(1000)]).optional();

/** sdkContextSchema: appName is required; any other top-level field is a custom property, as SDKs treat it. */
export const SdkContext = z.object({
  appName: z.string().min(1).max(255),
  userId: z.string().max(1000).optional(),
  sessionId: z.string().max(1000).optional(),
  remoteAddress: z.string().max(100).optional(),
  currentTime: z.string().max(100).optional(),
  environment: z.string().max(100).optional(),
  properties: z.record(z.string(), z.string().max(1000)).optional(),
}).catchall(z.string().max(1000));

/** playgroundRequestSchema: one environment, some projects (all by default), one context. */
export const PlaygroundRequest = z.object({ environment: z.string().min(1).max(100), projects: Projects, context: SdkContext });
/** advancedPlaygroundRequestSchema: several environments; comma-separated context values are combined. */
export const AdvancedPlaygroundRequest = z.object({
  environments: z.array(z.string().min(1).max(100)).min(1).max(20),
  projects: Projects,
  context: SdkContext,
});

/** Why a flag answers as it does for one context: each strategy's own check, each constraint, each segment. */
export type ExplainedConstraint = Constraint & { result: boolean };
export type ExplainedSegment = { id: number; name: string; result: boolean; constraints: ExplainedConstraint[] };
export type ExplainedStrategy = {
  id: string;
  name: string;
  title?: string;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: ExplainedConstraint[];
  segments: ExplainedSegment[];
  result: { evaluationStatus: 'complete'; enabled: boolean } | { evaluationStatus: 'incomplete'; enabled: false | 'unknown' };
};
export type PlaygroundVariant = { name: string; enabled: boolean; payload?: VariantPayload; feature_enabled: boolean };
export type ExplainedFeature = {
  strategies: { result: boolean | 'unknown'; data: ExplainedStrategy[] };
  isEnabledInCurrentEnvironment: boolean;
  isEnabled: boolean;
  hasUnsatisfiedDependency: boolean;
  variant: PlaygroundVariant;
};
/** One flag's answer in one environment for one of the advanced playground's contexts. */
export type AdvancedPlaygroundEvaluation = ExplainedFeature & {
  name: string;
  projectId: string;
  environment: string;
  variants: unknown[];
  context: Record<string, unknown>;
};
export type AdvancedPlaygroundResult = {
  input: z.infer<typeof AdvancedPlaygroundRequest>;
  features: { name: string; projectId: string; environments: Record<string, AdvancedPlaygroundEvaluation[]> }[];
};
