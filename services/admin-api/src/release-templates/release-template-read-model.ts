import type { Queryable } from '@bunting/platform';
import { releaseTemplateStore } from './release-template-store.ts';

/**
 * What a release plan takes from its template: the milestones in order, with their strategies and transitions (and
 * whether each waits for the guardrails), and the safeguards every plan starts with.
 */
export const releaseTemplateReadModel = {
  async get(db: Queryable, id: string) {
    const template = await releaseTemplateStore.get(db, id);
    if (!template) return null;
    const milestones = await releaseTemplateStore.milestonesOf(db, [id]);
    return {
      ...template,
      milestones: milestones.map(({ name, intervalMinutes, waitForGuardrails, strategies }) => ({
        name,
        intervalMinutes,
        waitForGuardrails,
        strategies,
      })),
    };
  },
};
