import type { Queryable } from '@bunting/platform';
import { segmentStore } from './segment-store.ts';

/** What the rest of admin-api may ask of segments. */
export const segmentReadModel = {
  /** The names of the segments each flag's strategies use. */
  async namesByFeature(db: Queryable): Promise<Map<string, Set<string>>> {
    const byFeature = new Map<string, Set<string>>();
    for (const use of await segmentStore.usesByFeature(db))
      byFeature.set(use.featureName, (byFeature.get(use.featureName) ?? new Set()).add(use.name));
    return byFeature;
  },
  /** Every segment's name by id. */
  async names(db: Queryable): Promise<Map<number, string>> {
    return new Map((await segmentStore.list(db)).map((segment) => [segment.id, segment.name]));
  },
  /** The project environments whose strategies use the segment. */
  async environmentsUsing(db: Queryable, id: number): Promise<{ project: string; environment: string }[]> {
    const seen = new Map<string, { project: string; environment: string }>();
    for (const use of await segmentStore.strategiesUsing(db, id))
      seen.set(`${use.projectId}\u0000${use.environment}`, { project: use.projectId, environment: use.environment });
    return [...seen.values()];
  },
};
