import { z } from 'zod';
import { PathName, PersonalDashboard, PersonalDashboardProject, ProjectEventsView } from '@bunting/contracts';
import { NotFoundError, askView, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { PROJECT_ROLE, ROOT_ROLE } from '../access/permission-catalogue.ts';
import { projectReadModel } from '../projects/project-read-model.ts';
import { userReadModel } from '../users/user-read-model.ts';
import { personalDashboardStore } from './personal-dashboard-store.ts';

/**
 * The caller's home page: the projects they belong to, the flags they created or marked favourite, who the
 * admins are and who owns their projects. An API token belongs to no one, so it sees only the admins.
 */
const LATEST_EVENTS = 10;
/** Gravatar's default picture, for changes made by a token. */
const DEFAULT_AVATAR = 'https://gravatar.com/avatar/?s=42&d=retro&r=g';

/** An event as one line of the dashboard: who did what to which flag, in the Markdown Unleash's UI renders. */
function eventSummary(event: {
  type: string;
  createdBy: string;
  featureName: string | null;
  environment: string | null;
}) {
  const what = event.type.replaceAll('-', ' ');
  return `**${event.createdBy}** ${what}${event.featureName ? ` **${event.featureName}**` : ''}${event.environment ? ` in **${event.environment}**` : ''}`;
}

export function personalDashboardRoutes(app: HttpServer, { db, messaging }: Pick<AdminDeps, 'db' | 'messaging'>) {
  app.get(
    '/api/admin/personal-dashboard',
    {
      schema: {
        summary: "The caller's projects and favourite flags, with the admins to ask",
        response: { 200: PersonalDashboard },
      },
    },
    async (request) => {
      const principal = allowRead(request);
      const userId = principal.userId !== null && principal.userId > 0 ? principal.userId : null;
      const memberOf = userId === null ? [] : await userReadModel.projectsOf(db, userId);
      const [projects, flags, adminIds, ownerIds] = await Promise.all([
        projectReadModel.views(db, memberOf),
        personalDashboardStore.flagsOf(db, userId, principal.key),
        personalDashboardStore.usersWithRootRole(db, ROOT_ROLE.ADMIN),
        personalDashboardStore.holdersOfRole(db, PROJECT_ROLE.OWNER, memberOf),
      ]);
      const people = (ids: readonly number[]) => userReadModel.views(db, ids);
      return {
        projects: projects.map((project) => {
          return {
            id: project.id,
            name: project.name,
            health: project.health,
            technicalDebt: 100 - project.health,
            memberCount: project.memberCount,
            featureCount: project.featureCount,
          };
        }),
        flags: [...flags],
        admins: (await people(adminIds)).map((user) => ({
          id: user.id,
          name: user.name ?? undefined,
          username: user.username ?? undefined,
          imageUrl: user.imageUrl,
          email: user.email,
        })),
        projectOwners: (await people(ownerIds)).map((user) => ({
          ownerType: 'user' as const,
          name: user.name ?? user.username ?? user.email ?? 'unknown',
          imageUrl: user.imageUrl,
          email: user.email ?? null,
        })),
      };
    },
  );

  // One project on the caller's home page: its owners, the caller's roles there, its latest events, its health.
  app.get(
    '/api/admin/personal-dashboard/:projectId',
    {
      schema: {
        summary: "One of the caller's projects: owners, the caller's roles, latest events and health",
        params: z.object({ projectId: PathName }),
        response: { 200: PersonalDashboardProject },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const principal = allowRead(request, { project: projectId });
      const project = await projectReadModel.view(db, projectId, principal.key);
      if (!project) throw new NotFoundError(`Could not find project ${projectId}`);
      const userId = principal.userId !== null && principal.userId > 0 ? principal.userId : null;
      const [roles, events] = await Promise.all([
        userId === null ? [] : userReadModel.projectRolesOf(db, userId, projectId),
        askView(messaging, ProjectEventsView, { project: projectId, limit: LATEST_EVENTS }),
      ]);
      const authors = new Map(
        (
          await userReadModel.views(db, [
            ...new Set(
              events.flatMap((event) =>
                event.createdByUserId !== null && event.createdByUserId > 0 ? [event.createdByUserId] : [],
              ),
            ),
          ])
        ).map((user) => [user.id, user.imageUrl] as const),
      );
      const stale = project.staleFeatureCount;
      const potentiallyStale = project.potentiallyStaleFeatureCount;
      return {
        owners: project.owners ?? [{ ownerType: 'system' as const }],
        roles: roles.map((role) => ({
          id: role.id,
          name: role.name,
          type: role.type === 'custom' ? ('custom' as const) : ('project' as const),
        })),
        latestEvents: events.map((event) => ({
          id: event.id,
          summary: eventSummary(event),
          createdBy: event.createdBy,
          createdAt: event.createdAt,
          createdByImageUrl:
            (event.createdByUserId !== null ? authors.get(event.createdByUserId) : undefined) ?? DEFAULT_AVATAR,
        })),
        onboardingStatus: project.onboardingStatus ?? { status: 'onboarding-started' as const },
        insights: {
          // Health over time windows is insights' to keep; the dashboard shows today's.
          avgHealthCurrentWindow: null,
          avgHealthPastWindow: null,
          totalFlags: project.featureCount,
          activeFlags: Math.max(0, project.featureCount - stale - potentiallyStale),
          staleFlags: stale,
          potentiallyStaleFlags: potentiallyStale,
          health: project.health,
          technicalDebt: project.technicalDebt ?? 100 - project.health,
        },
      };
    },
  );
}
