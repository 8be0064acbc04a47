import { z } from 'zod';

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
