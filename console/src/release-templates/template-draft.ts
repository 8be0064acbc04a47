import type { CreateFeatureStrategy } from '@bunting/contracts';
import type { ReleaseTemplate, ReleaseTemplateBody } from './release-template-queries.ts';

/** A milestone as the editor holds it: its interval as typed ('' for none), and whether it waits for guardrails. */
export type MilestoneDraft = {
  key: string;
  id?: string;
  name: string;
  interval: string;
  waitForGuardrails: boolean;
  strategies: (CreateFeatureStrategy & { id?: string })[];
};
/** A safeguard every plan made from the template starts with. */
export type TemplateSafeguardDraft = NonNullable<ReleaseTemplateBody['safeguards']>[number];
export type TemplateDraft = {
  name: string;
  description: string;
  milestones: MilestoneDraft[];
  safeguards: TemplateSafeguardDraft[];
};

let keys = 0;
const nextKey = () => `milestone-${(keys += 1)}`;

export const newMilestone = (name: string): MilestoneDraft => ({
  key: nextKey(),
  name,
  interval: '',
  waitForGuardrails: false,
  strategies: [],
});

/** A new template: one milestone, to start from. */
export const newTemplateDraft = (): TemplateDraft => ({
  name: '',
  description: '',
  milestones: [newMilestone('Milestone 1')],
  safeguards: [],
});

export function templateDraftOf(template: ReleaseTemplate): TemplateDraft {
  return {
    name: template.name,
    description: template.description ?? '',
    milestones: template.milestones.map((milestone) => ({
      key: nextKey(),
      id: milestone.id,
      name: milestone.name,
      interval: milestone.transitionCondition ? String(milestone.transitionCondition.intervalMinutes) : '',
      waitForGuardrails: milestone.transitionCondition?.waitForGuardrails === true,
      strategies: milestone.strategies.map(
        ({ milestoneId: _milestoneId, strategyName: _strategyName, sortOrder: _sortOrder, ...strategy }) =>
          strategy as CreateFeatureStrategy & { id: string },
      ),
    })),
    safeguards: template.safeguards,
  };
}

/** Why the draft cannot be saved yet, or null. */
export function templateProblem(draft: TemplateDraft): string | null {
  if (!draft.name.trim()) return 'Give the template a name.';
  if (draft.milestones.length === 0) return 'A template needs at least one milestone.';
  if (draft.milestones.some((milestone) => !milestone.name.trim())) return 'Every milestone needs a name.';
  const bad = draft.milestones
    .slice(0, -1)
    .find(
      (milestone) =>
        milestone.interval.trim() !== '' &&
        !(Number.isInteger(Number(milestone.interval)) && Number(milestone.interval) >= 1),
    );
  return bad ? `"${bad.name}": minutes before moving on must be a whole number of at least 1.` : null;
}

/** The body the API takes: milestones in order, the last one without a transition. */
export function templateBody(draft: TemplateDraft): ReleaseTemplateBody {
  return {
    name: draft.name.trim(),
    ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
    milestones: draft.milestones.map((milestone, index) => ({
      ...(milestone.id ? { id: milestone.id } : {}),
      name: milestone.name.trim(),
      sortOrder: index,
      transitionCondition:
        index < draft.milestones.length - 1 && milestone.interval.trim()
          ? {
              intervalMinutes: Number(milestone.interval),
              ...(milestone.waitForGuardrails ? { waitForGuardrails: true } : {}),
            }
          : null,
      strategies: milestone.strategies.map((strategy, order) => ({ ...strategy, sortOrder: order })),
    })),
    safeguards: draft.safeguards,
  };
}

/** The milestones with one moved up (-1) or down (1). */
export function movedMilestone(milestones: readonly MilestoneDraft[], index: number, by: -1 | 1): MilestoneDraft[] {
  const target = index + by;
  if (target < 0 || target >= milestones.length) return [...milestones];
  const moved = [...milestones];
  [moved[index], moved[target]] = [moved[target]!, moved[index]!];
  return moved;
}
