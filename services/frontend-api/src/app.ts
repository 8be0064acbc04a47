import type { FastifyPluginAsync } from 'fastify';
import type { HttpServer, Infrastructure } from '@bunting/platform';
import { clientRoutes } from './client/client-routes.ts';
import { deltaRoutes } from './client/delta-routes.ts';
import { readFrontendConfig, type FrontendConfig } from './frontend-config.ts';
import type { FrontendDeps } from './frontend-deps.ts';
import { frontendRoutes } from './frontend/frontend-routes.ts';
import { createSnapshotStore } from './snapshots/snapshot-store.ts';
import { watchAllowedOrigins } from './frontend/allowed-origins.ts';

/**
 * frontend-api: the SDK edge. Answers /api/frontend and /api/client from compiled in-memory snapshots;
 * nothing on the request path touches Postgres. Stateless apart from its snapshots, so it scales out.
 */
export function frontendApi(infrastructure: Infrastructure, config: FrontendConfig = readFrontendConfig(infrastructure.env)): FastifyPluginAsync {
  return async (app) => {
    const { messaging, redis, log, verifier } = infrastructure;
    const snapshots = createSnapshotStore({
      messaging,
      redis,
      log,
      namespace: infrastructure.config.namespace,
      hostname: config.hostname,
      revisionCheckMs: config.revisionCheckMs,
    });
    await snapshots.start();
    const origins = watchAllowedOrigins(messaging, config.allowedOrigins, log);
    const deps: FrontendDeps = { config, snapshots, verifier, messaging, origins };
    await app.register(async (scope) => {
      const server = scope as unknown as HttpServer;
      frontendRoutes(server, deps);
      clientRoutes(server, deps);
      deltaRoutes(server, deps);
    });
    app.addHook('onClose', () => {
      origins.stop();
      return snapshots.stop();
    });
  };
}
