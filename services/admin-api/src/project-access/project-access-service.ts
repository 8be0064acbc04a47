import { NotFoundError, type Queryable } from '@bunting/platform';
import type { ProjectAccessConfiguration } from '@bunting/contracts';
import type { Change } from '../events/changes.ts';
import { requireGroup } from '../groups/group-read-model.ts';
import { requireProject } from '../projects/project-read-model.ts';
import { roleReadModel } from '../roles/role-read-model.ts';
import { requireUser, userReadModel } from '../users/user-read-model.ts';
import { projectMembers } from '../projects/project-members.ts';
import { projectAccessStore, type Subject } from './project-access-store.ts';

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
      roleReadModel.projectRoles(db),
      projectAccessStore.assignments(db, 'user', project),
      projectAccessStore.assignments(db, 'group', project),
    ]);
    const userEntries = [];
    for (const id of new Set(users.map((row) => row.id))) {
      const [user] = await userReadModel.views(db, [id]);
      if (!user) continue;
      const roleIds = users.filter((row) => row.id === id).map((row) => row.roleId);
      userEntries.push({ ...user, roleId: roleIds[0], roles: roleIds });
    }
    const groupEntries = [];
    for (const id of new Set(groups.map((row) => row.id))) {
      const group = await requireGroup(db, id);
      const roleIds = groups.filter((row) => row.id === id).map((row) => row.roleId);
      groupEntries.push({ id: group.id, name: group.name, roleId: roleIds[0], roles: roleIds });
    }
    return { roles, users: userEntries, groups: groupEntries };
  },

  async add(change: Change, project: string, input: { roles: number[]; users: number[]; groups: number[] }) {
    await requireProject(change.tx, project);
    for (const roleId of input.roles) await roleReadModel.requireProjectRole(change.tx, roleId);
    for (const [subject, ids] of [
      ['user', input.users],
      ['group', input.groups],
    ] as const) {
      for (const id of ids) {
        await requireSubject(change.tx, subject, id);
        for (const roleId of input.roles) {
          await projectMembers.grant(change.tx, subject, project, id, roleId);
        }
      }
    }
    change.emit({
      type: 'project-access-added',
      project,
      data: { roles: input.roles, users: input.users, groups: input.groups },
    });
  },

  /**
   * Makes the project's access exactly `roles` (Unleash's PUT): each user and group named gets the roles naming it,
   * and everyone else loses theirs here. One event, only when something changed.
   */
  async configure(change: Change, project: string, roles: ProjectAccessConfiguration['roles']) {
    await requireProject(change.tx, project);
    const wanted = { user: new Map<number, number[]>(), group: new Map<number, number[]>() };
    for (const role of roles) {
      await roleReadModel.requireProjectRole(change.tx, role.id);
      for (const [subject, ids] of [
        ['user', role.users ?? []],
        ['group', role.groups ?? []],
      ] as const) {
        for (const id of ids) {
          if (!wanted[subject].has(id)) await requireSubject(change.tx, subject, id);
          wanted[subject].set(
            id,
            [...new Set([...(wanted[subject].get(id) ?? []), role.id])].sort((a, b) => a - b),
          );
        }
      }
    }
    let changed = false;
    const before: Record<Subject, { id: number; roles: number[] }[]> = { user: [], group: [] };
    for (const subject of ['user', 'group'] as const) {
      const held = new Map<number, number[]>();
      for (const row of await projectAccessStore.assignments(change.tx, subject, project))
        held.set(
          row.id,
          [...(held.get(row.id) ?? []), row.roleId].sort((a, b) => a - b),
        );
      before[subject] = [...held].map(([id, ids]) => ({ id, roles: ids }));
      for (const id of new Set([...held.keys(), ...wanted[subject].keys()])) {
        const next = wanted[subject].get(id) ?? [];
        if (JSON.stringify(next) === JSON.stringify(held.get(id) ?? [])) continue;
        changed = true;
        await projectMembers.revokeAll(change.tx, subject, project, id);
        for (const roleId of next) await projectMembers.grant(change.tx, subject, project, id, roleId);
      }
    }
    if (!changed) return;
    change.emit({
      type: 'project-access-updated',
      project,
      data: { roles },
      preData: { users: before.user, groups: before.group },
    });
  },

  /** Replaces the roles a user or group holds in the project; an empty list removes them from it. */
  async setRoles(change: Change, project: string, subject: Subject, id: number, roles: number[]) {
    await requireProject(change.tx, project);
    await requireSubject(change.tx, subject, id);
    for (const roleId of roles) await roleReadModel.requireProjectRole(change.tx, roleId);
    const before = await projectAccessStore.rolesOf(change.tx, subject, project, id);
    await projectMembers.revokeAll(change.tx, subject, project, id);
    for (const roleId of roles) await projectMembers.grant(change.tx, subject, project, id, roleId);
    const key = subject === 'user' ? 'userId' : 'groupId';
    if (roles.length === 0) {
      if (before.length === 0) throw new NotFoundError(`${subject} ${id} has no roles in project ${project}`);
      change.emit({
        type: subject === 'user' ? 'project-access-user-roles-deleted' : 'project-access-group-roles-deleted',
        project,
        preData: { [key]: id, roles: before },
      });
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
    await roleReadModel.requireProjectRole(db, roleId);
    return projectAccessStore.usersWithRole(db, roleId);
  },
};
