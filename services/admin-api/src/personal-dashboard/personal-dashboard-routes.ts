import { PersonalDashboard } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
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
export function personalDashboardRoutes(app: HttpServer, { db }: Pick<AdminDeps, 'db'>) {
  app.get('/api/admin/personal-dashboard', { schema: { summary: "The caller's projects and favourite flags, with the admins to ask", response: { 200: PersonalDashboard } } }, async (request) => {
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
        return { id: project.id, name: project.name, health: project.health, technicalDebt: 100 - project.health, memberCount: project.memberCount, featureCount: project.featureCount };
      }),
      flags: [...flags],
      admins: (await people(adminIds)).map((user) => ({ id: user.id, name: user.name ?? undefined, username: user.username ?? undefined, imageUrl: user.imageUrl, email: user.email })),
      projectOwners: (await people(ownerIds)).map((user) => ({ ownerType: 'user' as const, name: user.name ?? user.username ?? user.email ?? 'unknown', imageUrl: user.imageUrl, email: user.email ?? null })),
    };
  });
}
