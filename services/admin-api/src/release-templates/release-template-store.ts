import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { StoredMilestoneStrategy, TemplateSafeguard } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

export const TemplateRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  project: z.string().nullable(),
  createdByUserId: z.number(),
  createdAt: z.string(),
  archivedAt: z.string().nullable(),
  safeguards: z.array(TemplateSafeguard),
});
export type TemplateRow = z.infer<typeof TemplateRow>;

export const TemplateMilestoneRow = z.object({
  id: z.string(),
  templateId: z.string(),
  name: z.string(),
  sortOrder: z.number(),
  intervalMinutes: z.number().nullable(),
  waitForGuardrails: z.boolean(),
  strategies: z.array(StoredMilestoneStrategy),
});
export type TemplateMilestoneRow = z.infer<typeof TemplateMilestoneRow>;

const templateColumns = sql.fragment`id, name, description, project, created_by_user_id as "createdByUserId",
  to_char(created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
  to_char(archived_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "archivedAt", safeguards`;
const milestoneColumns = sql.fragment`id, template_id as "templateId", name, sort_order as "sortOrder", interval_minutes as "intervalMinutes", wait_for_guardrails as "waitForGuardrails", strategies`;

/** Release templates and their milestones. */
export const releaseTemplateStore = {
  /** The global templates, or those a project sees (its own and, with `withGlobal`, the global ones). */
  list(db: Queryable, scope: { project: string | null; withGlobal: boolean }) {
    const where =
      scope.project === null
        ? sql.fragment`project is null`
        : scope.withGlobal
          ? sql.fragment`(project = ${scope.project} or project is null)`
          : sql.fragment`project = ${scope.project}`;
    return db.any(
      sql.type(
        TemplateRow,
      )`select ${templateColumns} from admin.release_templates where ${where} order by created_at, id`,
    );
  },
  get(db: Queryable, id: string, options: { forUpdate?: boolean } = {}) {
    return db.maybeOne(
      sql.type(
        TemplateRow,
      )`select ${templateColumns} from admin.release_templates where id = ${id} ${options.forUpdate ? sql.fragment`for update` : sql.fragment``}`,
    );
  },
  nameTaken(db: Queryable, project: string | null, name: string, except: string | null) {
    return db.exists(sql.unsafe`select 1 from admin.release_templates
      where coalesce(project, '') = ${project ?? ''} and lower(name) = lower(${name}) and archived_at is null and id <> ${except ?? ''}`);
  },
  async insert(db: WriteTx, row: Omit<TemplateRow, 'createdAt' | 'archivedAt'>) {
    await db.query(sql.unsafe`insert into admin.release_templates (id, name, description, project, created_by_user_id, safeguards)
      values (${row.id}, ${row.name}, ${row.description}, ${row.project}, ${row.createdByUserId}, ${sql.jsonb(row.safeguards as never)})`);
  },
  async update(
    db: WriteTx,
    id: string,
    fields: { name: string; description: string | null; safeguards: readonly TemplateSafeguard[] },
  ) {
    await db.query(sql.unsafe`update admin.release_templates set name = ${fields.name}, description = ${fields.description},
      safeguards = ${sql.jsonb(fields.safeguards as never)} where id = ${id}`);
  },
  async archive(db: WriteTx, id: string) {
    await db.query(
      sql.unsafe`update admin.release_templates set archived_at = now() where id = ${id} and archived_at is null`,
    );
  },
  async delete(db: WriteTx, id: string) {
    await db.query(sql.unsafe`delete from admin.release_templates where id = ${id}`);
  },
  milestonesOf(db: Queryable, templateIds: readonly string[]) {
    return db.any(sql.type(TemplateMilestoneRow)`select ${milestoneColumns} from admin.release_template_milestones
      where template_id = any(${sql.array([...templateIds], 'text')}) order by template_id, sort_order, id`);
  },
  async replaceMilestones(
    db: WriteTx,
    templateId: string,
    milestones: readonly Omit<TemplateMilestoneRow, 'templateId'>[],
  ) {
    await db.query(sql.unsafe`delete from admin.release_template_milestones where template_id = ${templateId}`);
    for (const milestone of milestones) await releaseTemplateStore.insertMilestone(db, { ...milestone, templateId });
  },
  async insertMilestone(db: WriteTx, milestone: TemplateMilestoneRow) {
    await db.query(sql.unsafe`insert into admin.release_template_milestones (id, template_id, name, sort_order, interval_minutes, wait_for_guardrails, strategies)
      values (${milestone.id}, ${milestone.templateId}, ${milestone.name}, ${milestone.sortOrder}, ${milestone.intervalMinutes}, ${milestone.waitForGuardrails}, ${sql.jsonb(milestone.strategies as never)})`);
  },
  async updateMilestone(db: WriteTx, milestone: TemplateMilestoneRow) {
    await db.query(sql.unsafe`update admin.release_template_milestones set name = ${milestone.name}, sort_order = ${milestone.sortOrder},
      interval_minutes = ${milestone.intervalMinutes}, wait_for_guardrails = ${milestone.waitForGuardrails},
      strategies = ${sql.jsonb(milestone.strategies as never)} where id = ${milestone.id}`);
  },
  async deleteMilestone(db: WriteTx, id: string) {
    await db.query(sql.unsafe`delete from admin.release_template_milestones where id = ${id}`);
  },
};
