import type { ServicePlugin, ServiceInfrastructure } from '@bunting/platform';
import { mountSdkRoutes } from '../sdk-routes.ts';
import { readFrontendConfig, type FrontendConfig } from '../frontend-config.ts';
import type { FrontendDeps } from '../frontend-deps.ts';
import { watchAllowedOrigins } from '../frontend/allowed-origins.ts';
import { createEdgeCounts, registerEdgeMetrics } from '../edge-metrics.ts';
import { impactAdmission } from '../metrics/impact-admission.ts';
import { publishMetrics } from '../metrics/metrics-publisher.ts';
import { createEnvironmentSnapshots } from '../snapshots/environment-snapshots.ts';
import { followEnvironments } from './feed-snapshots.ts';
import { createTokenFeed } from './token-feed.ts';

/** How long a request for an environment this replica does not hold yet waits for its feed's first hydration. */
const FIRST_HYDRATION_WAIT_MS = 5_000;

/**
 * frontend-api in a Bunting cluster: the SDK edge. Answers /api/frontend, /api/client and OFREP from compiled
 * in-memory snapshots and verifies SDK tokens against its own copy, both followed from admin-api's configuration
 * feed on JetStream: nothing on the request path touches the network, so it keeps answering while Postgres, NATS or
 * admin-api are down, and a replica that starts late catches up from the stream. Stateless apart from those copies.
 */
export function frontendApi(
  infrastructure: ServiceInfrastructure<'messaging'>,
  config: FrontendConfig = readFrontendConfig(infrastructure.env),
): ServicePlugin {
  return async (app) => {
    const { messaging, log, metrics } = infrastructure;
    let feeds: ReturnType<typeof followEnvironments> | undefined;
    const snapshots = createEnvironmentSnapshots({
      hostname: config.hostname,
      log,
      waitMs: FIRST_HYDRATION_WAIT_MS,
      request: (environment) => feeds!.request(environment, FIRST_HYDRATION_WAIT_MS),
    });
    feeds = followEnvironments({ messaging, log, metrics, snapshots });
    const tokens = createTokenFeed({ messaging, log, metrics });
    infrastructure.readiness.add({
      name: 'sdk-tokens',
      check: async () => {
        if (!tokens.loaded()) throw new Error('no API token set yet: the token feed has not been read');
      },
    });
    const origins = watchAllowedOrigins(messaging, config.allowedOrigins, log);
    const counts = createEdgeCounts();
    const removeMetrics = registerEdgeMetrics(metrics, snapshots, counts);
    const deps: FrontendDeps = {
      config,
      snapshots,
      tokens,
      sendMetrics: publishMetrics(messaging),
      origins,
      counts,
      admitImpact: impactAdmission(metrics),
    };
    await mountSdkRoutes(app, deps);
    app.addHook('onClose', async () => {
      removeMetrics();
      origins.stop();
      tokens.stop();
      await feeds?.stop();
    });
  };
}
