import type { CreateEnvironment, Environment } from '@bunting/contracts';
import { NameExistsError, NotFoundError, ValidationError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { environmentStore, type EnvironmentRow } from './environment-store.ts';

function publicShape(row: EnvironmentRow): Environment {
  return row;
}

function eventState(row: EnvironmentRow) {
  return { name: row.name, type: row.type, enabled: row.enabled, protected: row.protected, sortOrder: row.sortOrder };
}

export async function requireEnvironment(db: Queryable, name: string): Promise<EnvironmentRow> {
  const environment = await environmentStore.get(db, name);
  if (!environment) throw new NotFoundError(`Could not find environment with name ${name}`);
  return environment;
}

export const environmentService = {
  async list(db: Queryable) {
    return { version: 1 as const, environments: (await environmentStore.list(db)).map(publicShape) };
  },

  async create({ tx, emit }: Change, input: CreateEnvironment): Promise<Environment> {
    if (await environmentStore.exists(tx, input.name)) {
      throw new NameExistsError(`An environment with the name ${input.name} already exists`);
    }
    await environmentStore.insert(tx, {
      name: input.name,
      type: input.type,
      enabled: input.enabled ?? true,
      sortOrder: input.sortOrder ?? 9999,
    });
    await environmentStore.addToAllProjects(tx, input.name);
    const created = await requireEnvironment(tx, input.name);
    emit({ type: 'environment-created', environment: created.name, data: eventState(created) });
    return publicShape(created);
  },

  async validateName(db: Queryable, name: string) {
    if (await environmentStore.exists(db, name)) throw new NameExistsError(`An environment with the name ${name} already exists`);
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
    if (before.protected) throw ValidationError.field('name', `The environment ${name} is protected and cannot be deleted`);
    await environmentStore.delete(tx, name);
    emit({ type: 'environment-deleted', environment: name, preData: eventState(before) });
  },

  async clone(change: Change, source: string, target: { name: string; type: string; projects?: string[] }) {
    await requireEnvironment(change.tx, source);
    const created = await environmentService.create(change, { name: target.name, type: target.type });
    await change.tx.query(sqlCopyEnvironment(source, target.name, target.projects));
    return created;
  },
};


/** Copies every feature's state, strategies and the strategies' segment links from one environment into a new one. */
function sqlCopyEnvironment(source: string, target: string, projects: string[] | undefined) {
  const projectFilter = projects && projects.length > 0
    ? sql.fragment`and f.project_id = any(${sql.array(projects, 'text')})`
    : sql.fragment``;
  // A CTE with a volatile function is computed once, so the new ids below are the same in every use.
  return sql.unsafe`
    with copied_env as (
      insert into admin.feature_environments (feature_name, environment, enabled, variants)
      select fe.feature_name, ${target}, fe.enabled, fe.variants from admin.feature_environments fe
      join admin.features f on f.name = fe.feature_name
      where fe.environment = ${source} ${projectFilter}
      returning feature_name
    ), strategy_ids as (
      select s.id as old_id, gen_random_uuid()::text as new_id
      from admin.feature_strategies s join admin.features f on f.name = s.feature_name
      where s.environment = ${source} ${projectFilter}
    ), copied_strategies as (
      insert into admin.feature_strategies (id, feature_name, environment, strategy_name, title, disabled, sort_order, constraints, parameters, variants)
      select ids.new_id, s.feature_name, ${target}, s.strategy_name, s.title, s.disabled, s.sort_order, s.constraints, s.parameters, s.variants
      from strategy_ids ids join admin.feature_strategies s on s.id = ids.old_id
      returning id
    ), copied_segments as (
      insert into admin.feature_strategy_segments (strategy_id, segment_id)
      select ids.new_id, links.segment_id
      from strategy_ids ids join admin.feature_strategy_segments links on links.strategy_id = ids.old_id
      returning strategy_id
    )
    select (select count(*) from copied_env) + (select count(*) from copied_strategies) + (select count(*) from copied_segments)`;
}
