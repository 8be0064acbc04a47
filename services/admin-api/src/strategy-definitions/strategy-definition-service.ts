import type { CreateStrategyDefinition } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { strategyDefinitionStore, type DefinitionRow } from './strategy-definition-store.ts';

function view(row: DefinitionRow) {
  return {
    name: row.name,
    displayName: row.title,
    title: row.title,
    description: row.description,
    editable: !row.builtIn,
    deprecated: row.deprecated,
    parameters: row.parameters,
  };
}

type DefinitionInput = CreateStrategyDefinition;

async function requireDefinition(db: Queryable, name: string) {
  const row = await strategyDefinitionStore.get(db, name);
  if (!row) throw new NotFoundError(`Could not find strategy ${name}`);
  return row;
}

/** Custom strategy definitions; the built-in ones can be listed but not changed. */
export const strategyDefinitionService = {
  async list(db: Queryable) {
    const rows = await strategyDefinitionStore.list(db);
    return { version: 1, strategies: rows.map(view) };
  },

  async get(db: Queryable, name: string) {
    return view(await requireDefinition(db, name));
  },

  async create({ tx, emit }: Change, input: DefinitionInput) {
    if (await strategyDefinitionStore.exists(tx, input.name)) {
      throw new NameExistsError(`A strategy with the name ${input.name} already exists`);
    }
    await strategyDefinitionStore.insert(tx, input.name, {
      title: input.title ?? null,
      description: input.description ?? null,
      parameters: input.parameters,
    });
    const created = view(await requireDefinition(tx, input.name));
    emit({ type: 'strategy-created', data: created });
    return created;
  },

  async update({ tx, emit }: Change, name: string, input: Omit<DefinitionInput, 'name'>) {
    const before = await requireDefinition(tx, name);
    if (before.builtIn) throw ValidationError.field('name', `the built-in strategy ${name} cannot be changed`);
    await strategyDefinitionStore.update(tx, name, {
      title: input.title ?? before.title,
      description: input.description ?? before.description,
      parameters: input.parameters,
    });
    const after = view(await requireDefinition(tx, name));
    emit({ type: 'strategy-updated', data: after, preData: view(before) });
    return after;
  },

  async setDeprecated({ tx, emit }: Change, name: string, deprecated: boolean) {
    const before = await requireDefinition(tx, name);
    if (before.deprecated === deprecated) return;
    await strategyDefinitionStore.setDeprecated(tx, name, deprecated);
    emit({ type: deprecated ? 'strategy-deprecated' : 'strategy-reactivated', data: { name } });
  },

  async delete({ tx, emit }: Change, name: string) {
    const before = await requireDefinition(tx, name);
    if (before.builtIn) throw ValidationError.field('name', `the built-in strategy ${name} cannot be deleted`);
    if (await strategyDefinitionStore.inUse(tx, name)) {
      throw new NameExistsError(`Strategy ${name} is in use by flags and cannot be deleted`);
    }
    await strategyDefinitionStore.delete(tx, name);
    emit({ type: 'strategy-deleted', data: { name } });
  },
};
