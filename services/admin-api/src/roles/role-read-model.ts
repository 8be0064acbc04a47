import type { Role } from '@bunting/contracts';
import { NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import { roleStore, roleView, type RoleRow } from './role-store.ts';

export { roleView, type RoleRow };

export const ROOT_ROLE_TYPES = ['root', 'root-custom'];
export const PROJECT_ROLE_TYPES = ['project', 'custom'];

/** What the rest of admin-api may ask of roles. */
export const roleReadModel = {
  /** A root role given by id or by name ("Admin", "Editor", "Viewer"); 400 naming `field` otherwise. */
  async requireRootRole(db: Queryable, input: number | string, field = 'rootRole'): Promise<RoleRow> {
    const role = typeof input === 'number' ? await roleStore.get(db, input) : await roleStore.getByName(db, input);
    if (!role || !ROOT_ROLE_TYPES.includes(role.type))
      throw ValidationError.field(field, `${input} is not a root role`);
    return role;
  },
  async requireProjectRole(db: Queryable, id: number): Promise<RoleRow> {
    const role = await roleStore.get(db, id);
    if (!role || !PROJECT_ROLE_TYPES.includes(role.type)) throw new NotFoundError(`Could not find project role ${id}`);
    return role;
  },
  async view(db: Queryable, id: number): Promise<Role | null> {
    const role = await roleStore.get(db, id);
    return role ? roleView(role) : null;
  },
  async rootRoles(db: Queryable): Promise<Role[]> {
    return (await roleStore.list(db, ROOT_ROLE_TYPES)).map(roleView);
  },
  async projectRoles(db: Queryable): Promise<Role[]> {
    return (await roleStore.list(db, PROJECT_ROLE_TYPES)).map(roleView);
  },
};
