import { z } from 'zod';
import type { ContextField, CreateContextField, LegalValue } from '@bunting/contracts';
import { NameExistsError, NotFoundError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';

const ContextFieldRow = z.object({
  name: z.string(),
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number(),
  legalValues: z.array(z.object({ value: z.string(), description: z.string().optional() })),
  project: z.string().nullable(),
  createdAt: z.string(),
});
type ContextFieldRow = z.infer<typeof ContextFieldRow>;

const select = sql.fragment`select name, description, stickiness, sort_order as "sortOrder", legal_values as "legalValues",
  project, created_at as "createdAt" from admin.context_fields`;

function view(row: ContextFieldRow): ContextField {
  return {
    name: row.name,
    description: row.description,
    stickiness: row.stickiness,
    sortOrder: row.sortOrder,
    createdAt: row.createdAt,
    legalValues: row.legalValues,
    ...(row.project ? { project: row.project } : {}),
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
  const row = await db.maybeOne(sql.type(ContextFieldRow)`${select} where name = ${name}`);
  if (!row || (project !== undefined && row.project !== project)) {
    throw new NotFoundError(`Could not find context field ${name}${project !== undefined ? ` in project ${project}` : ''}`);
  }
  return view(row);
}

export const contextFieldService = {
  /** Every context field, or only those of one project. */
  async list(db: Queryable, project?: string) {
    const only = project === undefined ? sql.fragment`` : sql.fragment`where project = ${project}`;
    return (await db.any(sql.type(ContextFieldRow)`${select} ${only} order by sort_order, name`)).map(view);
  },

  async validateName(db: Queryable, name: string) {
    if (await db.exists(sql.unsafe`select 1 from admin.context_fields where name = ${name}`)) {
      throw new NameExistsError(`A context field with the name ${name} already exists`);
    }
  },

  async create({ tx, emit }: Change, input: CreateContextField) {
    await contextFieldService.validateName(tx, input.name);
    await tx.query(sql.unsafe`insert into admin.context_fields (name, description, stickiness, sort_order, legal_values, project)
      values (${input.name}, ${input.description ?? null}, ${input.stickiness ?? false}, ${input.sortOrder ?? 10},
        ${sql.jsonb(uniqueLegalValues(input.legalValues))}, ${input.project ?? null})`);
    const created = await requireContextField(tx, input.name);
    emit({ type: 'context-field-created', project: created.project ?? null, data: eventState(created) });
    return created;
  },

  async update({ tx, emit }: Change, name: string, input: Partial<CreateContextField>) {
    const before = await requireContextField(tx, name);
    await tx.query(sql.unsafe`update admin.context_fields set
      description = ${input.description === undefined ? before.description : input.description},
      stickiness = ${input.stickiness ?? before.stickiness}, sort_order = ${input.sortOrder ?? before.sortOrder},
      legal_values = ${sql.jsonb(input.legalValues ? uniqueLegalValues(input.legalValues) : before.legalValues)}
      where name = ${name}`);
    const after = await requireContextField(tx, name);
    if (JSON.stringify(eventState(after)) !== JSON.stringify(eventState(before))) {
      emit({ type: 'context-field-updated', project: after.project ?? null, data: eventState(after), preData: eventState(before) });
    }
    return after;
  },

  async addLegalValue(change: Change, name: string, legalValue: LegalValue) {
    const before = await requireContextField(change.tx, name);
    const values = uniqueLegalValues([...before.legalValues, legalValue]);
    return contextFieldService.update(change, name, { legalValues: values });
  },

  async removeLegalValue(change: Change, name: string, value: string) {
    const before = await requireContextField(change.tx, name);
    return contextFieldService.update(change, name, { legalValues: before.legalValues.filter((item) => item.value !== value) });
  },

  async delete({ tx, emit }: Change, name: string) {
    const before = await requireContextField(tx, name);
    await tx.query(sql.unsafe`delete from admin.context_fields where name = ${name}`);
    emit({ type: 'context-field-deleted', project: before.project ?? null, preData: eventState(before) });
  },
};
