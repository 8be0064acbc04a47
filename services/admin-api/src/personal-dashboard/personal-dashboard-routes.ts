import { z } from 'zod';
import { sql, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { projectStore } from '../projects/project-store.ts';
import { toProject } from '../projects/project-service.ts';
import { userStore, userView } from '../users/user-store.ts';

const OWNER_ROLE = 4;
const ADMIN_ROLE = 1;
const Flag = z.object({ name: z.string(), project: z.string(), type: z.string() });
const Person = z.object({ id: z.number() });

/**
 * The caller's home page: the projects they belong to, the flags they created or marked favourite, who the
 * admins are and who owns their projects. An API token belongs to no one, so it sees only the admins.
 */
export function personalDashboardRoutes(app: HttpServer, { db }: AdminDeps) {
  app.get('/api/admin/personal-dashboard', async (request) => {
    const principal = allowRead(request);
    const userId = principal.userId !== null && principal.userId > 0 ? principal.userId : null;
    const memberOf = userId === null ? [] : await db.anyFirst(sql.type(z.object({ id: z.string() }))`
      select distinct project_id as id from admin.project_user_roles where user_id = ${userId}
      union select pgr.project_id from admin.project_group_roles pgr join admin.group_users gu on gu.group_id = pgr.group_id
        where gu.user_id = ${userId}`);
    const [projects, flags, adminIds, ownerIds] = await Promise.all([
      projectStore.list(db),
      db.any(sql.type(Flag)`
        select f.name, f.project_id as project, f.type from admin.features f
        where f.archived_at is null and (f.created_by_user_id = ${userId ?? -1}
          or exists (select 1 from admin.favorite_features ff where ff.feature_name = f.name and ff.principal = ${principal.key}))
        order by f.name`),
      db.anyFirst(sql.type(Person)`select id from admin.users where root_role_id = ${ADMIN_ROLE} and not is_service order by id`),
      db.anyFirst(sql.type(Person)`select distinct user_id as id from admin.project_user_roles
        where role_id = ${OWNER_ROLE} and project_id = any(${sql.array([...memberOf], 'text')}) order by 1`),
    ]);
    const people = async (ids: readonly number[]) => (await Promise.all(ids.map((id) => userStore.get(db, id))))
      .flatMap((user) => (user ? [userView(user)] : []));
    const mine = new Set(memberOf);
    return {
      projects: projects.filter((project) => mine.has(project.id)).map((row) => {
        const project = toProject(row, false);
        return { id: project.id, name: project.name, health: project.health, technicalDebt: 100 - project.health, memberCount: project.memberCount, featureCount: project.featureCount };
      }),
      flags: [...flags],
      admins: (await people(adminIds)).map((user) => ({ id: user.id, name: user.name ?? undefined, username: user.username ?? undefined, imageUrl: user.imageUrl, email: user.email })),
      projectOwners: (await people(ownerIds)).map((user) => ({ ownerType: 'user' as const, name: user.name ?? user.username ?? user.email ?? 'unknown', imageUrl: user.imageUrl, email: user.email ?? null })),
    };
  });
}
