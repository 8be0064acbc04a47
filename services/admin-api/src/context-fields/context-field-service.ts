import type { ContextField, CreateContextField, LegalValue } from '@bunting/contracts';
import { NameExistsError, NotFoundError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { contextFieldStore, type ContextFieldRow } from './context-field-store.ts';

type Usage = { features: number; projects: number };

/** Fields with how many flags and projects use them in strategy constraints (Unleash's usedInFeatures/usedInProjects). */
async function withUsage(db: Queryable, rows: readonly ContextFieldRow[]): Promise<ContextField[]> {
  const usage =
    rows.length === 0
      ? []
      : await contextFieldStore.usage(
          db,
          rows.map((row) => row.name),
        );
  const byName = new Map(usage.map((entry) => [entry.name, entry]));
  return rows.map((row) => view(row, byName.get(row.name) ?? { features: 0, projects: 0 }));
}

function view(row: ContextFieldRow, usage?: Usage): ContextField {
  return {
    name: row.name,
    description: row.description,
    stickiness: row.stickiness,
    sortOrder: row.sortOrder,
    createdAt: row.createdAt,
    legalValues: row.legalValues,
    ...(row.project ? { project: row.project } : {}),
    ...(usage ? { usedInFeatures: usage.features, usedInProjects: usage.projects } : {}),
  };
}

function eventState(row: ContextField) {
  const { createdAt: _createdAt, usedInFeatures: _f, usedInProjects: _p, ...state } = row;
  return state;
}

function uniqueLegalValues(values: readonly LegalValue[] | undefined): LegalValue[] {
  const seen = new Map<string, LegalValue>();
  for (const value of values ?? []) seen.set(value.value, value);
  return [...seen.values()];
}

/** A context field by name; with a project, only one that belongs to that project. */
export async function requireContextField(db: Queryable, name: string, project?: string): Promise<ContextField> {
  const row = await contextFieldStore.get(db, name);
  if (!row || (project !== undefined && row.project !== project)) {
    throw new NotFoundError(
      `Could not find context field ${name}${project !== undefined ? ` in project ${project}` : ''}`,
    );
  }
  return view(row);
}

/** A context field as its own answer shows it, with its usage. */
export async function contextFieldWithUsage(db: Queryable, name: string, project?: string): Promise<ContextField> {
  await requireContextField(db, name, project);
  return (await withUsage(db, [(await contextFieldStore.get(db, name))!]))[0]!;
}

export const contextFieldService = {
  /** Every context field, or those of one project (with the instance-wide ones too when `includeRoot`). */
  async list(db: Queryable, project?: string, includeRoot = false) {
    return withUsage(db, await contextFieldStore.list(db, project, includeRoot));
  },

  async validateName(db: Queryable, name: string) {
    if (await contextFieldStore.exists(db, name)) {
      throw new NameExistsError(`A context field with the name ${name} already exists`);
    }
  },

  async create({ tx, emit }: Change, input: CreateContextField) {
    await contextFieldService.validateName(tx, input.name);
    await contextFieldStore.insert(tx, {
      name: input.name,
      description: input.description ?? null,
      stickiness: input.stickiness ?? false,
      sortOrder: input.sortOrder ?? 10,
      legalValues: uniqueLegalValues(input.legalValues),
      project: input.project ?? null,
    });
    const created = await requireContextField(tx, input.name);
    emit({ type: 'context-field-created', project: created.project ?? null, data: eventState(created) });
    return created;
  },

  async update({ tx, emit }: Change, name: string, input: Partial<CreateContextField>) {
    const before = await requireContextField(tx, name);
    await contextFieldStore.update(tx, name, {
      description: input.description === undefined ? (before.description ?? null) : input.description,
      stickiness: input.stickiness ?? before.stickiness ?? false,
      sortOrder: input.sortOrder ?? before.sortOrder ?? 10,
      legalValues: input.legalValues ? uniqueLegalValues(input.legalValues) : before.legalValues,
    });
    const after = await requireContextField(tx, name);
    if (JSON.stringify(eventState(after)) !== JSON.stringify(eventState(before))) {
      emit({
        type: 'context-field-updated',
        project: after.project ?? null,
        data: eventState(after),
        preData: eventState(before),
      });
    }
    return after;
  },

  /** The strategies whose constraints use the field, so it can be told what deleting it would affect. */
  async strategiesUsing(db: Queryable, name: string, project?: string) {
    if (project !== undefined) await requireContextField(db, name, project);
    return { strategies: await contextFieldStore.strategiesUsing(db, name, project) };
  },

  async addLegalValue(change: Change, name: string, legalValue: LegalValue) {
    const before = await requireContextField(change.tx, name);
    const values = uniqueLegalValues([...before.legalValues, legalValue]);
    return contextFieldService.update(change, name, { legalValues: values });
  },

  async removeLegalValue(change: Change, name: string, value: string) {
    const before = await requireContextField(change.tx, name);
    return contextFieldService.update(change, name, {
      legalValues: before.legalValues.filter((item) => item.value !== value),
    });
  },

  async delete({ tx, emit }: Change, name: string) {
    const before = await requireContextField(tx, name);
    await contextFieldStore.delete(tx, name);
    emit({ type: 'context-field-deleted', project: before.project ?? null, preData: eventState(before) });
  },
};
