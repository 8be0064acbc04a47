import { randomUUID } from 'node:crypto';
import { SYSTEM_ACTOR, type DomainEvent } from '@bunting/contracts';
import { eventMessages, type Messaging, type Outbox, type Queryable } from '@bunting/platform';

/** Records application-created for applications seen for the first time, in the caller's transaction. */
export type AnnounceApplications = (tx: Queryable, apps: readonly string[]) => Promise<void>;

/** application-created for each new application, written to insights' outbox in the caller's transaction. */
export function applicationAnnouncer(outbox: Outbox, messaging: Pick<Messaging, 'names'>): AnnounceApplications {
  return async (tx, apps) => {
    if (apps.length === 0) return;
    const createdAt = new Date().toISOString();
    const events: DomainEvent[] = apps.map((appName) => ({
      uuid: randomUUID(),
      type: 'application-created',
      createdAt,
      ...SYSTEM_ACTOR,
      environment: null,
      project: null,
      featureName: null,
      data: { appName },
      preData: null,
      tags: [],
    }));
    await outbox.add(tx, eventMessages(messaging, events));
  };
}
