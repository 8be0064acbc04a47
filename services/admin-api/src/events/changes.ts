import { randomUUID } from 'node:crypto';
import type { Actor, DomainEvent, EventType, Tag } from '@bunting/contracts';
import { eventMessages, type DatabasePool, type DatabaseTransactionConnection, type Messaging, type Outbox } from '@bunting/platform';
import { eventTagStore } from './event-tag-store.ts';
import { projectActivityStore } from './project-activity-store.ts';

/** What a change says happened; the unit fills in uuid, time, actor and the feature's tags. */
export type EventDraft = {
  type: EventType;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: Record<string, unknown> | null;
  preData?: Record<string, unknown> | null;
  tags?: Tag[];
};

export type Change = {
  tx: DatabaseTransactionConnection;
  actor: Actor;
  emit: (draft: EventDraft) => void;
};

export type Changes = {
  /** Runs `work` in one transaction and writes every event it emitted to the outbox in that same transaction. */
  run: <T>(actor: Actor, work: (change: Change) => Promise<T>) => Promise<T>;
};

export function createChanges(deps: { db: DatabasePool; outbox: Outbox; messaging: Pick<Messaging, 'names'> }): Changes {
  return {
    run(actor, work) {
      return deps.db.transaction(async (tx) => {
        const drafts: EventDraft[] = [];
        const result = await work({ tx, actor, emit: (draft) => drafts.push(draft) });
        if (drafts.length > 0) {
          const events = await toEvents(tx, actor, drafts);
          await deps.outbox.add(tx, eventMessages(deps.messaging, events));
          const projects = [...new Set(events.map((event) => event.project).filter((project) => project !== null))];
          if (projects.length > 0) await projectActivityStore.touch(tx, projects);
        }
        return result;
      });
    },
  };
}

async function toEvents(tx: DatabaseTransactionConnection, actor: Actor, drafts: EventDraft[]): Promise<DomainEvent[]> {
  const needTags = [...new Set(drafts.filter((d) => d.featureName && !d.tags).map((d) => d.featureName!))];
  const tagsByFeature = new Map<string, Tag[]>();
  if (needTags.length > 0) {
    for (const row of await eventTagStore.forFeatures(tx, needTags)) {
      const list = tagsByFeature.get(row.featureName) ?? [];
      list.push({ value: row.value, type: row.type });
      tagsByFeature.set(row.featureName, list);
    }
  }
  const createdAt = new Date().toISOString();
  const groupId = randomUUID();
  return drafts.map((draft) => ({
    uuid: randomUUID(),
    type: draft.type,
    createdAt,
    createdBy: actor.createdBy,
    createdByUserId: actor.createdByUserId,
    environment: draft.environment ?? null,
    project: draft.project ?? null,
    featureName: draft.featureName ?? null,
    data: draft.data ?? null,
    preData: draft.preData ?? null,
    tags: draft.tags ?? (draft.featureName ? tagsByFeature.get(draft.featureName) ?? [] : []),
    groupId,
  }));
}

export { actorOf } from '@bunting/platform';
