import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

export type Subject = 'user' | 'group';

const Assignment = z.object({ id: z.number(), roleId: z.number() });
const table = (subject: Subject) =>
  sql.identifier(['admin', subject === 'user' ? 'project_user_roles' : 'project_group_roles']);
const column = (subject: Subject) => sql.identifier([subject === 'user' ? 'user_id' : 'group_id']);

/** Which users and groups hold which roles in which project. */
export const projectAccessStore = {
  async rolesOf(db: Queryable, subject: Subject, project: string, id: number): Promise<number[]> {
    return [
      ...(await db.anyFirst(sql.type(z.object({ roleId: z.number() }))`
      select role_id as "roleId" from ${table(subject)} where project_id = ${project} and ${column(subject)} = ${id} order by role_id`)),
    ];
  },
  /** Every (user or group, role) pair of the project. */
  assignments(db: Queryable, subject: Subject, project: string) {
    return db.any(sql.type(Assignment)`select ${column(subject)} as id, role_id as "roleId" from ${table(subject)}
      where project_id = ${project} order by 1, 2`);
  },
  usersWithRole(db: Queryable, roleId: number) {
    return db.any(sql.type(z.object({ userId: z.number(), project: z.string() }))`
      select user_id as "userId", project_id as project from admin.project_user_roles where role_id = ${roleId} order by project_id, user_id`);
  },
};
