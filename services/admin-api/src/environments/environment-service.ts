import type { CreateEnvironment, Environment } from '@bunting/contracts';
import { recordKeeping } from '../events/write-tx.ts';
import { NameExistsError, NotFoundError, ValidationError, type DatabasePool, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { environmentStore, type EnvironmentRow } from './environment-store.ts';

function publicShape(row: EnvironmentRow): Environment {
  // Unleash Enterprise can require approvals for a whole environment; Bunting sets them per project environment.
  return { ...row, requiredApprovals: null };
}

function eventState(row: EnvironmentRow) {
  return { name: row.name, type: row.type, enabled: row.enabled, protected: row.protected, sortOrder: row.sortOrder };
}

export async function requireEnvironment(db: Queryable, name: string): Promise<EnvironmentRow> {
  const environment = await environmentStore.get(db, name);
  if (!environment) throw new NotFoundError(`Could not find environment with name ${name}`);
  return environment;
}

/** One environment as the API shows it. */
export const environmentView = async (db: Queryable, name: string) => publicShape(await requireEnvironment(db, name));

export const environmentService = {
  async list(db: Queryable) {
    return { version: 1 as const, environments: (await environmentStore.list(db)).map(publicShape) };
  },

  async create({ tx, emit }: Change, input: CreateEnvironment): Promise<Environment> {
    if (await environmentStore.exists(tx, input.name)) {
      throw new NameExistsError(`An environment with the name ${input.name} already exists`);
    }
    const inserted = await environmentStore.insert(tx, {
      name: input.name,
      type: input.type,
      enabled: input.enabled ?? true,
      sortOrder: input.sortOrder ?? 9999,
    });
    if (!inserted) throw new NameExistsError(`An environment with the name ${input.name} already exists`);
    await environmentStore.addToAllProjects(tx, input.name);
    const created = await requireEnvironment(tx, input.name);
    emit({ type: 'environment-created', environment: created.name, data: eventState(created) });
    return publicShape(created);
  },

  async validateName(db: Queryable, name: string) {
    if (await environmentStore.exists(db, name))
      throw new NameExistsError(`An environment with the name ${name} already exists`);
  },

  async update({ tx, emit }: Change, name: string, changes: { type?: string; sortOrder?: number; enabled?: boolean }) {
    const before = await requireEnvironment(tx, name);
    const next = {
      type: changes.type ?? before.type,
      sortOrder: changes.sortOrder ?? before.sortOrder,
      enabled: changes.enabled ?? before.enabled,
    };
    if (next.type === before.type && next.sortOrder === before.sortOrder && next.enabled === before.enabled) {
      return publicShape(before);
    }
    await environmentStore.update(tx, name, next);
    const after = await requireEnvironment(tx, name);
    emit({ type: 'environment-updated', environment: name, data: eventState(after), preData: eventState(before) });
    return publicShape(after);
  },

  async delete({ tx, emit }: Change, name: string) {
    const before = await requireEnvironment(tx, name);
    if (before.protected)
      throw ValidationError.field('name', `The environment ${name} is protected and cannot be deleted`);
    await environmentStore.delete(tx, name);
    emit({ type: 'environment-deleted', environment: name, preData: eventState(before) });
  },

  /** Marks the configured environments protected (PROTECTED_ENVIRONMENTS) and every other one not. */
  setProtected(db: DatabasePool, names: string[]) {
    return recordKeeping(db, (tx) => environmentStore.setProtected(tx, names));
  },
};
