import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { StrategyDefinition } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

// The row is the resource's own fields (the stored parameters are the ones the API accepted), and whether it is built in.
export const DefinitionRow = StrategyDefinition.pick({
  name: true,
  description: true,
  parameters: true,
  deprecated: true,
}).extend({ title: z.string().nullable(), builtIn: z.boolean() });
export type DefinitionRow = z.infer<typeof DefinitionRow>;
type DefinitionWrite = Pick<DefinitionRow, 'title' | 'description' | 'parameters'>;

const select = sql.fragment`select name, title, description, parameters, built_in as "builtIn", deprecated from admin.strategies`;

/** Strategy definitions (admin.strategies): the built-in ones and custom ones with their declared parameters. */
export const strategyDefinitionStore = {
  list: (db: Queryable) => db.any(sql.type(DefinitionRow)`${select} order by sort_order, name`),
  get: (db: Queryable, name: string) => db.maybeOne(sql.type(DefinitionRow)`${select} where name = ${name}`),
  exists: (db: Queryable, name: string) => db.exists(sql.unsafe`select 1 from admin.strategies where name = ${name}`),
  insert(db: WriteTx, name: string, definition: DefinitionWrite) {
    return db.query(sql.unsafe`insert into admin.strategies (name, title, description, parameters)
      values (${name}, ${definition.title}, ${definition.description}, ${sql.jsonb(definition.parameters)})`);
  },
  update(db: WriteTx, name: string, definition: DefinitionWrite) {
    return db.query(sql.unsafe`update admin.strategies set title = ${definition.title}, description = ${definition.description},
      parameters = ${sql.jsonb(definition.parameters)} where name = ${name}`);
  },
  setDeprecated: (db: WriteTx, name: string, deprecated: boolean) =>
    db.query(sql.unsafe`update admin.strategies set deprecated = ${deprecated} where name = ${name}`),
  inUse: (db: Queryable, name: string) =>
    db.exists(sql.unsafe`select 1 from admin.feature_strategies where strategy_name = ${name}`),
  delete: (db: WriteTx, name: string) => db.query(sql.unsafe`delete from admin.strategies where name = ${name}`),
};
