import { randomUUID } from 'node:crypto';
import type { Actor, DomainEvent, EventType, Tag } from '@bunting/contracts';
import type { DatabasePool, DatabaseTransactionConnection } from './database.ts';
import type { Messaging } from './messaging.ts';
import { eventMessages, type Outbox, type OutboxMessage } from './outbox.ts';

/** What a change says happened; the unit of work stamps its id, time, actor, group and (when asked) tags. */
export type EventDraft = {
  type: EventType;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: Record<string, unknown> | null;
  preData?: Record<string, unknown> | null;
  tags?: Tag[];
};

export type UnitOfWork = {
  tx: DatabaseTransactionConnection;
  actor: Actor;
  emit: (draft: EventDraft) => void;
  /** Other messages published through the same outbox (received signals, the configuration feed). */
  publish: (message: OutboxMessage) => void;
  /** What the work has emitted so far, in order (for steps that react to it before the commit). */
  drafts: () => readonly EventDraft[];
};

/**
 * Every service's changes with their events, the one unit of work: a transaction writes the change, its events and
 * any other messages to the service's outbox together, so none is published without the others. Events of one
 * change share a groupId. `tagsOf` gives events about a flag that flag's tags (admin-api's); a service that layers
 * more on top (admin-api's change-request gate and reactions) does so inside `work`.
 */
export function createUnitOfWork(deps: {
  db: DatabasePool;
  outbox: Outbox;
  messaging: Pick<Messaging, 'names'>;
  tagsOf?: (tx: DatabaseTransactionConnection, featureNames: readonly string[]) => Promise<Map<string, Tag[]>>;
}) {
  return {
    run<T>(actor: Actor, work: (change: UnitOfWork) => Promise<T>): Promise<T> {
      return deps.db.transaction(async (tx) => {
        const drafts: EventDraft[] = [];
        const messages: OutboxMessage[] = [];
        const result = await work({
          tx,
          actor,
          emit: (draft) => drafts.push(draft),
          publish: (message) => messages.push(message),
          drafts: () => drafts,
        });
        if (drafts.length === 0 && messages.length === 0) return result;
        const untagged = [
          ...new Set(drafts.flatMap((draft) => (draft.featureName && !draft.tags ? [draft.featureName] : []))),
        ];
        const tags = deps.tagsOf && untagged.length > 0 ? await deps.tagsOf(tx, untagged) : new Map<string, Tag[]>();
        const events = eventsOf(actor, drafts, tags);
        await deps.outbox.add(tx, [...eventMessages(deps.messaging, events), ...messages]);
        return result;
      });
    },
  };
}
export type UnitsOfWork = ReturnType<typeof createUnitOfWork>;

function eventsOf(actor: Actor, drafts: readonly EventDraft[], tags: Map<string, Tag[]>): DomainEvent[] {
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
    tags: draft.tags ?? (draft.featureName ? (tags.get(draft.featureName) ?? []) : []),
    groupId,
    ...(actor.createdVia ? { createdVia: actor.createdVia } : {}),
  }));
}
