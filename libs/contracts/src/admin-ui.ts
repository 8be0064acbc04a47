import { z } from 'zod';
import { OnboardingStatus, ProjectOwner } from './projects.ts';

// Answers: what the routes of this resource send.

/** GET /api/admin/maintenance */
export const MaintenanceView = z.object({ enabled: z.boolean() });

/** GET /api/admin/personal-dashboard */
export const PersonalDashboard = z.object({
  projects: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      health: z.number(),
      technicalDebt: z.number(),
      memberCount: z.number(),
      featureCount: z.number(),
    }),
  ),
  flags: z.array(z.object({ name: z.string(), project: z.string(), type: z.string() })),
  admins: z.array(
    z.object({
      id: z.number(),
      name: z.string().optional(),
      username: z.string().optional(),
      imageUrl: z.string().optional(),
      email: z.string().optional(),
    }),
  ),
  projectOwners: z.array(
    z.object({
      ownerType: z.literal('user'),
      name: z.string(),
      imageUrl: z.string().optional(),
      email: z.string().nullable(),
    }),
  ),
});

/** POST /api/admin/splash/:id */
export const SplashSeen = z.object({ userId: z.number(), splashId: z.string(), seen: z.boolean() });

/** GET /api/admin/ui-config */
export const UiConfig = z.object({
  name: z.string(),
  slogan: z.string(),
  version: z.string(),
  unleashUrl: z.string(),
  baseUriPath: z.string(),
  authenticationType: z.string(),
  disablePasswordAuth: z.boolean(),
  oidcConfiguredThroughEnv: z.boolean(),
  samlConfiguredThroughEnv: z.boolean(),
  emailEnabled: z.boolean(),
  maintenanceMode: z.boolean(),
  /** The most sessions one user has (Unleash's UI warns of shared accounts with it). */
  maxSessionsCount: z.number().int(),
  frontendApiOrigins: z.array(z.string()),
  flags: z.object({ oidcEnabled: z.boolean() }),
  links: z.array(z.never()),
  versionInfo: z.object({
    current: z.object({ oss: z.string() }),
    latest: z.object({}),
    isLatest: z.boolean(),
    bunting: z.string(),
  }),
});

/** GET /api/admin/personal-dashboard/:projectId: one of the caller's projects on their home page. */
export const PersonalDashboardProject = z.object({
  owners: z.array(ProjectOwner),
  roles: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.enum(['custom', 'project']) })),
  latestEvents: z.array(
    z.object({
      id: z.number().int(),
      summary: z.string(),
      createdBy: z.string(),
      createdByImageUrl: z.string(),
      createdAt: z.string(),
    }),
  ),
  onboardingStatus: OnboardingStatus,
  insights: z.object({
    avgHealthCurrentWindow: z.number().int().nullable(),
    avgHealthPastWindow: z.number().int().nullable(),
    totalFlags: z.number().int(),
    activeFlags: z.number().int(),
    staleFlags: z.number().int(),
    potentiallyStaleFlags: z.number().int(),
    health: z.number().int(),
    technicalDebt: z.number().int(),
  }),
});
