import type { MilestoneInput, MilestoneStrategyInput, ReleaseTemplate, ReleaseTemplateInput } from '@bunting/contracts';
import { ConflictError, NameExistsError, NotFoundError, ulid, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { milestoneStrategyView, storedStrategies } from './milestone-strategies.ts';
import { releaseTemplateStore, type TemplateMilestoneRow, type TemplateRow } from './release-template-store.ts';

/** A template's milestone as answered (a template's milestones never start: their plan copies do). */
export const templateMilestoneView = (row: TemplateMilestoneRow) => ({
  id: row.id,
  name: row.name,
  sortOrder: row.sortOrder,
  releasePlanDefinitionId: row.templateId,
  startedAt: null,
  transitionCondition:
    row.intervalMinutes === null
      ? null
      : { intervalMinutes: row.intervalMinutes, ...(row.waitForGuardrails ? { waitForGuardrails: true } : {}) },
  progressionExecutedAt: null,
  pausedAt: null,
  strategies: row.strategies.map((strategy) => milestoneStrategyView(row.id, strategy)),
});

async function views(db: Queryable, rows: readonly TemplateRow[]): Promise<ReleaseTemplate[]> {
  const milestones = await releaseTemplateStore.milestonesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...row,
    discriminator: 'template' as const,
    milestones: milestones.filter((milestone) => milestone.templateId === row.id).map(templateMilestoneView),
  }));
}

export async function requireTemplate(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TemplateRow> {
  const row = await releaseTemplateStore.get(db, id, options);
  if (!row) throw new NotFoundError(`Could not find release template ${id}`);
  return row;
}

/** The milestones of a template's body, in order: ids kept where they are this template's, the last one without a transition. */
async function milestoneRows(
  db: Queryable,
  inputs: readonly MilestoneInput[],
  known: readonly TemplateMilestoneRow[],
): Promise<Omit<TemplateMilestoneRow, 'templateId'>[]> {
  const keepIds = new Set(known.map((milestone) => milestone.id));
  const keepStrategyIds = new Set(known.flatMap((milestone) => milestone.strategies.map((strategy) => strategy.id)));
  const ordered = inputs
    .map((input, index) => ({ input, index }))
    .sort((a, b) => (a.input.sortOrder ?? a.index) - (b.input.sortOrder ?? b.index) || a.index - b.index);
  const rows = [];
  for (const [position, { input }] of ordered.entries()) {
    rows.push({
      id: input.id && keepIds.has(input.id) ? input.id : ulid(),
      name: input.name,
      sortOrder: position,
      intervalMinutes: position === ordered.length - 1 ? null : (input.transitionCondition?.intervalMinutes ?? null),
      waitForGuardrails: position < ordered.length - 1 && input.transitionCondition?.waitForGuardrails === true,
      strategies: await storedStrategies(db, input.strategies ?? [], keepStrategyIds),
    });
  }
  return rows;
}

const settingEvent = (template: ReleaseTemplate) => ({
  id: template.id,
  name: template.name,
  project: template.project,
  milestones: template.milestones,
  safeguards: template.safeguards,
});

/** Release templates: named milestones whose strategies plans copy. Changes are settings events named as Unleash names them. */
export const releaseTemplateService = {
  async list(db: Queryable, scope: { project: string | null; withGlobal: boolean }) {
    return views(db, await releaseTemplateStore.list(db, scope));
  },

  async get(db: Queryable, id: string) {
    return (await views(db, [await requireTemplate(db, id)]))[0]!;
  },

  async create(change: Change, project: string | null, input: ReleaseTemplateInput, createdByUserId: number) {
    if (await releaseTemplateStore.nameTaken(change.tx, project, input.name, null))
      throw new NameExistsError(`There is already a release template called "${input.name}"`);
    const id = ulid();
    await releaseTemplateStore.insert(change.tx, {
      id,
      name: input.name,
      description: input.description ?? null,
      project,
      createdByUserId,
      safeguards: input.safeguards ?? [],
    });
    await releaseTemplateStore.replaceMilestones(
      change.tx,
      id,
      await milestoneRows(change.tx, input.milestones ?? [], []),
    );
    const template = await releaseTemplateService.get(change.tx, id);
    change.emit({
      type: 'setting-created',
      project,
      data: { unleashEventType: 'release-plan-template-created', template: settingEvent(template) },
    });
    return template;
  },

  /** Replaces the name, description and milestones (Unleash: the milestones are made again from the body). */
  async update(change: Change, id: string, input: ReleaseTemplateInput) {
    const row = await requireTemplate(change.tx, id, { forUpdate: true });
    if (row.archivedAt !== null) throw new ConflictError(`Release template ${id} is archived`);
    if (await releaseTemplateStore.nameTaken(change.tx, row.project, input.name, id))
      throw new NameExistsError(`There is already a release template called "${input.name}"`);
    const before = await releaseTemplateService.get(change.tx, id);
    await releaseTemplateStore.update(change.tx, id, {
      name: input.name,
      description: input.description ?? null,
      safeguards: input.safeguards ?? row.safeguards,
    });
    const known = await releaseTemplateStore.milestonesOf(change.tx, [id]);
    await releaseTemplateStore.replaceMilestones(
      change.tx,
      id,
      await milestoneRows(change.tx, input.milestones ?? [], known),
    );
    const after = await releaseTemplateService.get(change.tx, id);
    change.emit({
      type: 'setting-updated',
      project: row.project,
      data: { unleashEventType: 'release-plan-template-updated', template: settingEvent(after) },
      preData: { template: settingEvent(before) },
    });
    return after;
  },

  async archive(change: Change, id: string) {
    const row = await requireTemplate(change.tx, id, { forUpdate: true });
    if (row.archivedAt !== null) return;
    await releaseTemplateStore.archive(change.tx, id);
    change.emit({
      type: 'setting-updated',
      project: row.project,
      data: {
        unleashEventType: 'release-plan-template-archived',
        template: { id, name: row.name, project: row.project },
      },
    });
  },

  async delete(change: Change, id: string) {
    const before = await releaseTemplateService.get(change.tx, id);
    await releaseTemplateStore.delete(change.tx, id);
    change.emit({
      type: 'setting-deleted',
      project: before.project,
      data: { unleashEventType: 'release-plan-template-deleted' },
      preData: { template: settingEvent(before) },
    });
  },

  /** Milestones one by one (Unleash 7.4's milestone routes), each written through update so the events stay one shape. */
  async addMilestone(change: Change, id: string, input: MilestoneInput) {
    const template = await releaseTemplateService.get(change.tx, id);
    const milestones = [
      ...template.milestones.map(inputOf),
      { ...input, id: undefined, sortOrder: input.sortOrder ?? template.milestones.length },
    ];
    const after = await releaseTemplateService.update(change, id, {
      name: template.name,
      description: template.description,
      milestones,
    });
    return pickNew(template, after);
  },

  async updateMilestone(change: Change, id: string, milestoneId: string, input: MilestoneInput) {
    const template = await releaseTemplateService.get(change.tx, id);
    requireMilestone(template, milestoneId);
    const milestones = template.milestones.map((milestone) =>
      milestone.id === milestoneId
        ? {
            ...inputOf(milestone),
            ...input,
            id: milestoneId,
            strategies: input.strategies ?? inputOf(milestone).strategies,
          }
        : inputOf(milestone),
    );
    const after = await releaseTemplateService.update(change, id, {
      name: template.name,
      description: template.description,
      milestones,
    });
    return requireMilestone(after, milestoneId);
  },

  async removeMilestone(change: Change, id: string, milestoneId: string) {
    const template = await releaseTemplateService.get(change.tx, id);
    requireMilestone(template, milestoneId);
    await releaseTemplateService.update(change, id, {
      name: template.name,
      description: template.description,
      milestones: template.milestones.filter((milestone) => milestone.id !== milestoneId).map(inputOf),
    });
  },

  async addStrategy(change: Change, id: string, milestoneId: string, strategy: MilestoneStrategyInput) {
    const template = await releaseTemplateService.get(change.tx, id);
    const milestone = requireMilestone(template, milestoneId);
    return releaseTemplateService.updateMilestone(change, id, milestoneId, {
      ...inputOf(milestone),
      strategies: [...inputOf(milestone).strategies, { ...strategy, id: undefined }],
    });
  },

  async updateStrategy(
    change: Change,
    id: string,
    milestoneId: string,
    strategyId: string,
    strategy: MilestoneStrategyInput,
  ) {
    const template = await releaseTemplateService.get(change.tx, id);
    const milestone = requireMilestone(template, milestoneId);
    if (!milestone.strategies.some((one) => one.id === strategyId))
      throw new NotFoundError(`Could not find strategy ${strategyId} in milestone ${milestoneId}`);
    const strategies = inputOf(milestone).strategies.map((one) =>
      one.id === strategyId ? { ...strategy, id: strategyId } : one,
    );
    const after = await releaseTemplateService.updateMilestone(change, id, milestoneId, {
      ...inputOf(milestone),
      strategies,
    });
    return after.strategies.find((one) => one.id === strategyId)!;
  },

  async removeStrategy(change: Change, id: string, milestoneId: string, strategyId: string) {
    const template = await releaseTemplateService.get(change.tx, id);
    const milestone = requireMilestone(template, milestoneId);
    if (!milestone.strategies.some((one) => one.id === strategyId))
      throw new NotFoundError(`Could not find strategy ${strategyId} in milestone ${milestoneId}`);
    await releaseTemplateService.updateMilestone(change, id, milestoneId, {
      ...inputOf(milestone),
      strategies: inputOf(milestone).strategies.filter((one) => one.id !== strategyId),
    });
  },
};

type TemplateMilestone = ReleaseTemplate['milestones'][number];

function requireMilestone(template: ReleaseTemplate, milestoneId: string): TemplateMilestone {
  const milestone = template.milestones.find((one) => one.id === milestoneId);
  if (!milestone) throw new NotFoundError(`Could not find milestone ${milestoneId} in release template ${template.id}`);
  return milestone;
}

/** A milestone as the body that would make it again. */
const inputOf = (milestone: TemplateMilestone) => ({
  id: milestone.id,
  name: milestone.name,
  sortOrder: milestone.sortOrder,
  transitionCondition: milestone.transitionCondition,
  // Kept strategies passed their checks when written; they are checked again on the way back in.
  strategies: milestone.strategies.map(
    ({ milestoneId: _milestoneId, strategyName: _strategyName, ...strategy }) => strategy,
  ) as MilestoneStrategyInput[],
});

const pickNew = (before: ReleaseTemplate, after: ReleaseTemplate) =>
  after.milestones.find((milestone) => !before.milestones.some((known) => known.id === milestone.id))!;
