import { inScope, type HttpServer } from '@bunting/platform';
import { clientRoutes } from './client/client-routes.ts';
import { deltaRoutes } from './client/delta-routes.ts';
import type { FrontendDeps } from './frontend-deps.ts';
import { collectWhenIdle } from './idle-collection.ts';
import { browserRoutesHook } from './frontend/cors.ts';
import { frontendRoutes } from './frontend/frontend-routes.ts';
import { ofrepEventStreamRoutes } from './ofrep/ofrep-event-stream.ts';
import { ofrepRoutes } from './ofrep/ofrep-routes.ts';
import { trackRoutes } from './tracking/track-routes.ts';

/** Every API an SDK calls, the same on the cluster's edge and the standalone edge; only where `deps` come from differs. */
export async function mountSdkRoutes(app: HttpServer, deps: FrontendDeps, more?: (server: HttpServer) => void) {
  await inScope(app, (server) => {
    browserRoutesHook(
      server,
      () => deps.config.frontendApiEnabled,
      () => deps.origins.current(),
    );
    frontendRoutes(server, deps);
    clientRoutes(server, deps);
    deltaRoutes(server, deps);
    ofrepRoutes(server, deps);
    ofrepEventStreamRoutes(server, deps);
    trackRoutes(server, deps);
    more?.(server);
  });
  const stopCollecting = collectWhenIdle();
  app.addHook('onClose', async () => stopCollecting());
}
