import { randomUUID } from 'node:crypto';
import type { Actor, DomainEvent, EventType } from '@bunting/contracts';
import { eventMessages, type DatabasePool, type DatabaseTransactionConnection, type Messaging, type Outbox, type OutboxMessage } from '@bunting/platform';

export type SignalEventDraft = { type: EventType; project?: string | null; data?: Record<string, unknown> | null; preData?: Record<string, unknown> | null };

export type SignalChange = {
  tx: DatabaseTransactionConnection;
  actor: Actor;
  emit: (draft: SignalEventDraft) => void;
  /** Other messages (received signals) published through the same outbox. */
  publish: (message: OutboxMessage) => void;
};

/** One transaction: the change, its events and any other messages go to the outbox together. */
export function createSignalChanges(deps: { db: DatabasePool; outbox: Outbox; messaging: Pick<Messaging, 'names'> }) {
  return {
    run<T>(actor: Actor, work: (change: SignalChange) => Promise<T>): Promise<T> {
      return deps.db.transaction(async (tx) => {
        const drafts: SignalEventDraft[] = [];
        const messages: OutboxMessage[] = [];
        const result = await work({ tx, actor, emit: (draft) => drafts.push(draft), publish: (message) => messages.push(message) });
        const createdAt = new Date().toISOString();
        const events: DomainEvent[] = drafts.map((draft) => ({
          uuid: randomUUID(), type: draft.type, createdAt, createdBy: actor.createdBy, createdByUserId: actor.createdByUserId,
          environment: null, project: draft.project ?? null, featureName: null, data: draft.data ?? null, preData: draft.preData ?? null, tags: [],
        }));
        await deps.outbox.add(tx, [...eventMessages(deps.messaging, events), ...messages]);
        return result;
      });
    },
  };
}
export type SignalChanges = ReturnType<typeof createSignalChanges>;
