import { randomUUID } from 'node:crypto';
import type { Actor, DomainEvent, EventType } from '@bunting/contracts';
import type { DatabasePool, DatabaseTransactionConnection } from './database.ts';
import type { Messaging } from './messaging.ts';
import { eventMessages, type Outbox, type OutboxMessage } from './outbox.ts';

/** An event a change writes; the unit of work stamps its id, time and actor. */
export type EventDraft = {
  type: EventType;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: Record<string, unknown> | null;
  preData?: Record<string, unknown> | null;
};

export type UnitOfWork = {
  tx: DatabaseTransactionConnection;
  actor: Actor;
  emit: (draft: EventDraft) => void;
  /** Other messages published through the same outbox (received signals, say). */
  publish: (message: OutboxMessage) => void;
};

/**
 * A service's changes with their events (services other than admin-api, whose unit of work also holds the
 * change-request gate): one transaction writes the change, its events and any other messages to the service's
 * outbox together, so none is published without the others.
 */
export function createUnitOfWork(deps: { db: DatabasePool; outbox: Outbox; messaging: Pick<Messaging, 'names'> }) {
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
        });
        const createdAt = new Date().toISOString();
        const events: DomainEvent[] = drafts.map((draft) => ({
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
          tags: [],
          ...(actor.createdVia ? { createdVia: actor.createdVia } : {}),
        }));
        await deps.outbox.add(tx, [...eventMessages(deps.messaging, events), ...messages]);
        return result;
      });
    },
  };
}
export type UnitsOfWork = ReturnType<typeof createUnitOfWork>;
