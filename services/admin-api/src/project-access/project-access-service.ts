import { z } from 'zod';
import { NotFoundError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { requireGroup } from '../groups/group-service.ts';
import { requireProject } from '../projects/project-service.ts';
import { PROJECT_ROLE_TYPES, requireProjectRole, roleStore, roleView } from '../roles/role-store.ts';
import { requireUser } from '../users/user-service.ts';
import { userStore, userView } from '../users/user-store.ts';

const Assignment = z.object({ id: z.number(), roleId: z.number() });

type Subject = 'user' | 'group';

const table = (subject: Subject) => sql.identifier(['admin', subject === 'user' ? 'project_user_roles' : 'project_group_roles']);
const column = (subject: Subject) => sql.identifier([subject === 'user' ? 'user_id' : 'group_id']);

async function rolesOf(db: Queryable, subject: Subject, project: string, id: number): Promise<number[]> {
  return [...await db.anyFirst(sql.type(z.object({ roleId: z.number() }))`
    select role_id as "roleId" from ${table(subject)} where project_id = ${project} and ${column(subject)} = ${id} order by role_id`)];
}

async function requireSubject(db: Queryable, subject: Subject, id: number) {
  if (subject === 'user') await requireUser(db, id).catch(async () => requireUser(db, id, { serviceAccount: true }));
  else await requireGroup(db, id);
}

/**
 * Who may do what in a project: users and groups hold project roles (Owner, Member or custom ones).
 * Changes write the project-access-* events.
 */
export const projectAccessService = {
  async overview(db: Queryable, project: string) {
    await requireProject(db, project);
    const [roles, users, groups] = await Promise.all([
      roleStore.list(db, PROJECT_ROLE_TYPES),
      db.any(sql.type(Assignment)`select user_id as id, role_id as "roleId" from admin.project_user_roles where project_id = ${project} order by user_id, role_id`),
      db.any(sql.type(Assignment)`select group_id as id, role_id as "roleId" from admin.project_group_roles where project_id = ${project} order by group_id, role_id`),
    ]);
    const userEntries = [];
    for (const id of new Set(users.map((row) => row.id))) {
      const user = await userStore.get(db, id);
      if (!user) continue;
      const roleIds = users.filter((row) => row.id === id).map((row) => row.roleId);
      userEntries.push({ ...userView(user), roleId: roleIds[0], roles: roleIds });
    }
    const groupEntries = [];
    for (const id of new Set(groups.map((row) => row.id))) {
      const group = await requireGroup(db, id);
      const roleIds = groups.filter((row) => row.id === id).map((row) => row.roleId);
      groupEntries.push({ id: group.id, name: group.name, roleId: roleIds[0], roles: roleIds });
    }
    return { roles: roles.map(roleView), users: userEntries, groups: groupEntries };
  },

  async add(change: Change, project: string, input: { roles: number[]; users: number[]; groups: number[] }) {
    await requireProject(change.tx, project);
    for (const roleId of input.roles) await requireProjectRole(change.tx, roleId);
    for (const [subject, ids] of [['user', input.users], ['group', input.groups]] as const) {
      for (const id of ids) {
        await requireSubject(change.tx, subject, id);
        for (const roleId of input.roles) {
          await change.tx.query(sql.unsafe`insert into ${table(subject)} (project_id, ${column(subject)}, role_id)
            values (${project}, ${id}, ${roleId}) on conflict do nothing`);
        }
      }
    }
    change.emit({ type: 'project-access-added', project, data: { roles: input.roles, users: input.users, groups: input.groups } });
  },

  /** Replaces the roles a user or group holds in the project; an empty list removes them from it. */
  async setRoles(change: Change, project: string, subject: Subject, id: number, roles: number[]) {
    await requireProject(change.tx, project);
    await requireSubject(change.tx, subject, id);
    for (const roleId of roles) await requireProjectRole(change.tx, roleId);
    const before = await rolesOf(change.tx, subject, project, id);
    await change.tx.query(sql.unsafe`delete from ${table(subject)} where project_id = ${project} and ${column(subject)} = ${id}`);
    for (const roleId of roles) {
      await change.tx.query(sql.unsafe`insert into ${table(subject)} (project_id, ${column(subject)}, role_id) values (${project}, ${id}, ${roleId})`);
    }
    const key = subject === 'user' ? 'userId' : 'groupId';
    if (roles.length === 0) {
      if (before.length === 0) throw new NotFoundError(`${subject} ${id} has no roles in project ${project}`);
      change.emit({ type: subject === 'user' ? 'project-access-user-roles-deleted' : 'project-access-group-roles-deleted', project, preData: { [key]: id, roles: before } });
    } else if (JSON.stringify([...roles].sort()) !== JSON.stringify(before)) {
      change.emit({
        type: subject === 'user' ? 'project-access-user-roles-updated' : 'project-access-group-roles-updated',
        project,
        data: { [key]: id, roles },
        preData: { [key]: id, roles: before },
      });
    }
  },

  async usersWithRole(db: Queryable, roleId: number) {
    await requireProjectRole(db, roleId);
    return db.any(sql.type(z.object({ userId: z.number(), project: z.string() }))`
      select user_id as "userId", project_id as project from admin.project_user_roles where role_id = ${roleId} order by project_id, user_id`);
  },
};
