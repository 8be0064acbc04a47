import { z } from 'zod';
import { followStream, type ServicePlugin, type ServiceInfrastructure } from '@bunting/platform';
import { mountSdkRoutes } from './sdk-routes.ts';
import { readFrontendConfig, type FrontendConfig } from './frontend-config.ts';
import type { FrontendDeps } from './frontend-deps.ts';
import { createSnapshotStore } from './snapshots/snapshot-store.ts';
import { watchAllowedOrigins } from './frontend/allowed-origins.ts';
import { createSdkTokens } from './tokens/sdk-tokens.ts';
import { createEdgeCounts, registerEdgeMetrics } from './edge-metrics.ts';
import { impactAdmission } from './metrics/impact-admission.ts';
import { publishMetrics } from './metrics/metrics-publisher.ts';

/**
 * frontend-api: the SDK edge. Answers /api/frontend and /api/client from compiled in-memory snapshots and verifies
 * SDK tokens against its own copy of them: nothing on the request path touches the network, so it keeps answering
 * while Postgres, NATS, Redis or admin-api are down. Stateless apart from those copies, so it scales out.
 */
export function frontendApi(infrastructure: ServiceInfrastructure<'messaging' | 'redis'>, config: FrontendConfig = readFrontendConfig(infrastructure.env)): ServicePlugin {
  return async (app) => {
    const { messaging, redis, log } = infrastructure;
    const namespace = infrastructure.config.namespace;
    const snapshots = createSnapshotStore({ messaging, redis, log, namespace, hostname: config.hostname, revisionCheckMs: config.revisionCheckMs });
    const tokens = createSdkTokens({ messaging, redis, log, namespace });
    const { state } = await messaging.jsm.streams.info(messaging.names.eventsStream);
    snapshots.start(state.last_seq);
    // One reader of the event stream for both: configuration changes rebuild snapshots, token changes reach the token set.
    const follower = followStream({
      messaging,
      stream: messaging.names.eventsStream,
      filterSubject: messaging.names.eventsSubjects,
      schema: z.unknown(),
      fromSequence: state.last_seq + 1,
      handle: (event, message) => {
        snapshots.onEvent(event, message.seq);
        tokens.onEvent(event);
      },
      metrics: infrastructure.metrics,
    });
    await tokens.start();
    infrastructure.readiness.add({
      name: 'sdk-tokens',
      check: async () => { if (!tokens.loaded()) throw new Error('no API token set yet: admin-api and the Redis mirror were unreachable'); },
    });
    const origins = watchAllowedOrigins(messaging, config.allowedOrigins, log);
    const counts = createEdgeCounts();
    const removeMetrics = registerEdgeMetrics(infrastructure.metrics, snapshots, counts);
    const deps: FrontendDeps = { config, snapshots, tokens, sendMetrics: publishMetrics(messaging), origins, counts, admitImpact: impactAdmission(infrastructure.metrics) };
    await mountSdkRoutes(app, deps);
    app.addHook('onClose', async () => {
      removeMetrics();
      origins.stop();
      tokens.stop();
      await follower.stop();
      await snapshots.stop();
    });
  };
}
