import { fileURLToPath } from 'node:url';
import { DomainEvent, EventTimeView, ProjectEventsView } from '@bunting/contracts';
import {
  answerView,
  authenticate,
  consumerMessagesCounter,
  followIntoStore,
  migrate,
  type ServicePlugin,
  type ServiceInfrastructure,
  inScope,
} from '@bunting/platform';
import { eventRoutes } from './event-routes.ts';
import { eventStore } from './event-store.ts';

export const EVENT_LOG_SCHEMA = 'event_log';
const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * event-log: stores every domain event once, in stream order, and serves the event log API. Every replica follows
 * the stream and stores runs of events with the position they reach in one transaction; what another replica
 * stored first is skipped, so the log's ids follow the stream however many replicas run.
 */
export function eventLog(infrastructure: ServiceInfrastructure<'db' | 'messaging' | 'verifier'>): ServicePlugin {
  return async (app) => {
    const { db, messaging, log, verifier } = infrastructure;
    await migrate({
      databaseUrl: infrastructure.config.databaseUrl,
      schema: EVENT_LOG_SCHEMA,
      dir: migrationsDir,
      log,
    });

    const durable = messaging.names.consumer('event_log');
    // Until 2026-11 the log read through a durable consumer; the position table took its place.
    await messaging.jsm.consumers.delete(messaging.names.eventsStream, durable).catch(() => undefined);
    const stored = consumerMessagesCounter(infrastructure.metrics);
    const consumer = followIntoStore({
      messaging,
      stream: messaging.names.eventsStream,
      filterSubject: messaging.names.eventsSubjects,
      schema: DomainEvent,
      storedUpTo: ({ created }) => eventStore.positionIn(db, created),
      store: async (run, upTo) => {
        const added = await eventStore.storeRun(db, run, upTo);
        stored?.inc({ consumer: durable, outcome: 'acked' }, added);
      },
      metrics: infrastructure.metrics,
    });
    // The backlog, as the durable consumers report theirs: what the stream holds beyond the stored position.
    const removeBacklog = infrastructure.metrics
      ?.sampledGauge('bunting_consumer_pending_messages', 'Messages waiting for a durable consumer, delivered or not', [
        'consumer',
      ])
      .addSource(async () => {
        const [info, position] = await Promise.all([
          messaging.jsm.streams.info(messaging.names.eventsStream),
          eventStore.storedUpTo(db),
        ]);
        return [{ labels: { consumer: durable }, value: Math.max(0, info.state.last_seq - position) }];
      });

    // A project's latest events for its dashboard (admin-api asks: the log is kept here).
    const projectEvents = answerView(messaging, ProjectEventsView, async ({ project, limit }) => {
      const { events } = await eventStore.find(db, { project: [project] }, { limit, offset: 0 });
      return events.map((event) => ({
        id: event.id,
        type: event.type,
        createdBy: event.createdBy,
        createdByUserId: event.createdByUserId ?? null,
        createdAt: event.createdAt,
        featureName: event.featureName ?? null,
        environment: event.environment ?? null,
      }));
    });

    // Where an audit replay from an event starts (admin-api asks: the log, with its ids, is kept here).
    const eventTime = answerView(messaging, EventTimeView, async (event) => ({
      createdAt: await eventStore.createdAtOf(db, event),
    }));

    await inScope(app, (server) => {
      server.addHook('onRequest', async (request) => {
        await authenticate(verifier, request);
      });
      eventRoutes(server, db);
    });

    app.addHook('onClose', async () => {
      projectEvents.stop();
      eventTime.stop();
      removeBacklog?.();
      await consumer.stop();
    });
  };
}
