import { fileURLToPath } from 'node:url';
import { DomainEvent } from '@bunting/contracts';
import { authenticate, migrate, runDurableConsumer, type ServicePlugin, type ServiceInfrastructure, inScope } from '@bunting/platform';
import { eventRoutes } from './event-routes.ts';
import { eventStore } from './event-store.ts';

export const EVENT_LOG_SCHEMA = 'event_log';
const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * event-log: stores every domain event once, in arrival order, and serves the event log API.
 * Replicas share one durable consumer, so each event is stored by exactly one of them, one at a time in stream order.
 */
export function eventLog(infrastructure: ServiceInfrastructure<'db' | 'messaging' | 'verifier'>): ServicePlugin {
  return async (app) => {
    const { db, messaging, log, verifier } = infrastructure;
    await migrate({ databaseUrl: infrastructure.config.databaseUrl, schema: EVENT_LOG_SCHEMA, dir: migrationsDir, log });

    const consumer = runDurableConsumer({
      messaging,
      metrics: infrastructure.metrics,
      stream: messaging.names.eventsStream,
      durable: messaging.names.consumer('event_log'),
      filterSubject: messaging.names.eventsSubjects,
      schema: DomainEvent,
      // One event out at a time across replicas, so the log's ids follow commit order however many replicas run.
      maxAckPending: 1,
      handle: async (event) => {
        await eventStore.insert(db, event);
      },
    });

    await inScope(app, (server) => {
      server.addHook('onRequest', async (request) => {
        await authenticate(verifier, request);
      });
      eventRoutes(server, db);
    });

    app.addHook('onClose', async () => {
      await consumer.stop();
    });
  };
}
