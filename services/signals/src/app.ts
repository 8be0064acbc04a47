import { fileURLToPath } from 'node:url';
import {
  authenticate,
  createOutbox,
  migrate,
  startRelay,
  type ServicePlugin,
  type ServiceInfrastructure,
  inScope,
} from '@bunting/platform';
import { startActionRunner } from './actions/action-runner.ts';
import { actionRoutes } from './actions/action-routes.ts';
import { createSecretBox } from './actions/secret-box.ts';
import { endpointRoutes } from './endpoints/endpoint-routes.ts';
import { ingestionRoutes } from './ingestion/ingestion-routes.ts';
import { signalRoutes } from './ingestion/signal-routes.ts';
import { createSignalChanges } from './signal-changes.ts';
import { readSignalsConfig, type SignalsConfig } from './signals-config.ts';
import type { SignalsDeps } from './signals-deps.ts';

export const SIGNALS_SCHEMA = 'signals';
const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * signals: rate-limited signal ingestion, signal endpoint and action set configuration, and the action runner
 * that reacts to received signals. Owns schema "signals" and its own outbox.
 */
export function signalsService(
  infrastructure: ServiceInfrastructure<'db' | 'messaging' | 'redis' | 'verifier'>,
  config: SignalsConfig = readSignalsConfig(infrastructure.env),
): ServicePlugin {
  return async (app) => {
    const { db, messaging, log, verifier, redis } = infrastructure;
    await migrate({
      databaseUrl: infrastructure.config.databaseUrl,
      schema: SIGNALS_SCHEMA,
      dir: migrationsDir,
      log,
      outbox: true,
    });
    const outbox = createOutbox(SIGNALS_SCHEMA);
    const changes = createSignalChanges({ db, outbox, messaging });
    const relay = startRelay({
      schema: SIGNALS_SCHEMA,
      db,
      databaseUrl: infrastructure.config.databaseUrl,
      messaging,
      log,
      metrics: infrastructure.metrics,
    });
    const secrets = createSecretBox(config.secretKey);
    // All-in-one: admin-api answers on this very server.
    const adminApiUrl = () =>
      config.adminApiUrl ?? app.listeningOrigin.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    const deps: SignalsDeps = {
      db,
      changes,
      messaging,
      redis,
      log,
      config,
      verifier,
      namespace: infrastructure.config.namespace,
      secrets,
      metrics: infrastructure.metrics,
    };
    const runner = startActionRunner({ db, messaging, log, adminApiUrl, secrets, metrics: infrastructure.metrics });

    await inScope(app, (scope) => ingestionRoutes(scope, deps));
    await inScope(app, (server) => {
      server.addHook('onRequest', async (request) => {
        await authenticate(verifier, request);
      });
      endpointRoutes(server, deps);
      signalRoutes(server, deps);
      actionRoutes(server, { ...deps, actionDeps: { adminApiUrl, secrets } });
    });

    app.addHook('onClose', async () => {
      await runner.stop();
      await relay.stop();
    });
  };
}
