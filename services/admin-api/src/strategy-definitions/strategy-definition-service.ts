import { z } from 'zod';
import { NameExistsError, NotFoundError, ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';

const DefinitionRow = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  parameters: z.array(z.object({ name: z.string(), type: z.string(), description: z.string().optional(), required: z.boolean().optional() })),
  builtIn: z.boolean(),
  deprecated: z.boolean(),
});
type DefinitionRow = z.infer<typeof DefinitionRow>;

const select = sql.fragment`select name, title, description, parameters, built_in as "builtIn", deprecated from admin.strategies`;

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

type DefinitionInput = {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  parameters: { name: string; type: string; description?: string | undefined; required?: boolean | undefined }[];
};

async function requireDefinition(db: Queryable, name: string) {
  const row = await db.maybeOne(sql.type(DefinitionRow)`${select} where name = ${name}`);
  if (!row) throw new NotFoundError(`Could not find strategy ${name}`);
  return row;
}

/** Custom strategy definitions; the built-in ones can be listed but not changed. */
export const strategyDefinitionService = {
  async list(db: Queryable) {
    const rows = await db.any(sql.type(DefinitionRow)`${select} order by sort_order, name`);
    return { version: 1, strategies: rows.map(view) };
  },

  async get(db: Queryable, name: string) {
    return view(await requireDefinition(db, name));
  },

  async create({ tx, emit }: Change, input: DefinitionInput) {
    if (await tx.exists(sql.unsafe`select 1 from admin.strategies where name = ${input.name}`)) {
      throw new NameExistsError(`A strategy with the name ${input.name} already exists`);
    }
    await tx.query(sql.unsafe`insert into admin.strategies (name, title, description, parameters)
      values (${input.name}, ${input.title ?? null}, ${input.description ?? null}, ${sql.jsonb(input.parameters)})`);
    const created = view(await requireDefinition(tx, input.name));
    emit({ type: 'strategy-created', data: created });
    return created;
  },

  async update({ tx, emit }: Change, name: string, input: Omit<DefinitionInput, 'name'>) {
    const before = await requireDefinition(tx, name);
    if (before.builtIn) throw ValidationError.field('name', `the built-in strategy ${name} cannot be changed`);
    await tx.query(sql.unsafe`update admin.strategies set title = ${input.title ?? before.title},
      description = ${input.description ?? before.description}, parameters = ${sql.jsonb(input.parameters)} where name = ${name}`);
    const after = view(await requireDefinition(tx, name));
    emit({ type: 'strategy-updated', data: after, preData: view(before) });
    return after;
  },

  async setDeprecated({ tx, emit }: Change, name: string, deprecated: boolean) {
    const before = await requireDefinition(tx, name);
    if (before.deprecated === deprecated) return;
    await tx.query(sql.unsafe`update admin.strategies set deprecated = ${deprecated} where name = ${name}`);
    emit({ type: deprecated ? 'strategy-deprecated' : 'strategy-reactivated', data: { name } });
  },

  async delete({ tx, emit }: Change, name: string) {
    const before = await requireDefinition(tx, name);
    if (before.builtIn) throw ValidationError.field('name', `the built-in strategy ${name} cannot be deleted`);
    if (await tx.exists(sql.unsafe`select 1 from admin.feature_strategies where strategy_name = ${name}`)) {
      throw new NameExistsError(`Strategy ${name} is in use by flags and cannot be deleted`);
    }
    await tx.query(sql.unsafe`delete from admin.strategies where name = ${name}`);
    emit({ type: 'strategy-deleted', data: { name } });
  },
};
