import {
  addConnectionChecks,
  closeInfrastructure,
  connectInfrastructure,
  createHttpServer,
  createLogger,
  createMetrics,
  registerApiDocs,
  registerApiDocsRoutes,
  readPlatformConfig,
  registerHealthRoutes,
  startStartupServer,
  type Env,
  type HttpServer,
  type Infrastructure,
  type StartupState,
} from '@bunting/platform';
import { SERVICES, SERVICE_NAMES, connectionsOf, parseTargets, type ServiceName } from './services.ts';

/** The version Bunting reports (its API speaks Unleash 8.2's). */
const BUNTING_VERSION = '0.1.0';

export type Stack = {
  app: HttpServer;
  url: string;
  infrastructure: Infrastructure;
  targets: ServiceName[];
  close: () => Promise<void>;
};

/**
 * Builds one process: the connections its targets need, one HTTP server, and the targeted services mounted on it.
 * The same function serves `npm start` (all), a single-service deployment and the tests. While a dependency is
 * awaited the port already answers /health (200) and /ready (503).
 */
export async function startStack(
  options: {
    target?: string;
    env?: Env;
    listen?: boolean;
    /** Called on the server before any route is registered (tests add hooks that must see every route). */
    instrument?: (app: HttpServer) => void;
    /** Documents the API even where the target does not need it (the tests check the edge's answers against it). */
    document?: boolean;
  } = {},
): Promise<Stack> {
  const env = options.env ?? process.env;
  const config = readPlatformConfig(env);
  const targets = parseTargets(options.target ?? env.BUNTING_TARGET ?? 'all');
  const log = createLogger(config.logLevel, targets.length > 1 ? 'bunting' : targets[0]!);
  const listen = options.listen ?? true;
  const starting: StartupState = { awaiting: null };
  const startup = listen ? await startStartupServer(config.host, config.port, () => starting.awaiting) : undefined;
  const { needs, tolerated } = connectionsOf(targets);
  let infrastructure: Infrastructure | undefined;
  const metrics = createMetrics();
  const app = createHttpServer({
    log,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    metrics,
    logSdkRequests: config.logSdkRequests,
  });
  try {
    infrastructure = await connectInfrastructure(config, log, env, needs, starting, metrics);
    addConnectionChecks(infrastructure, tolerated);
    // The standalone edge serves SDKs only: it documents nothing, and does not load the document's generator.
    const documented = options.document ?? !targets.includes('edge');
    if (documented) await registerApiDocs(app, { version: BUNTING_VERSION });
    options.instrument?.(app);
    registerHealthRoutes(app, infrastructure.readiness, metrics);
    for (const target of targets) await app.register(await SERVICES[target].build(infrastructure));
    // Split apart, each service documents its own routes and admin-api (behind `/` at the ingress) serves the union.
    const apart = SERVICE_NAMES.filter((name) => !targets.includes(name));
    if (documented)
      await registerApiDocsRoutes(app, {
        messaging: infrastructure.messaging,
        publishAs: apart.length > 0 ? targets.filter((name) => name !== 'admin-api') : [],
        union: targets.includes('admin-api') ? apart : [],
      });
    await app.ready();
  } catch (error) {
    await startup?.close();
    await app.close().catch(() => undefined);
    if (infrastructure) await closeInfrastructure(infrastructure).catch(() => undefined);
    throw error;
  }
  const connected = infrastructure;
  let url = '';
  if (startup) {
    // The startup server's own socket, taken over as it is (fastify passes the options on to Node's listen).
    const address = await app.listen({
      handle: startup.handle,
      host: config.host === 'localhost' ? '127.0.0.1' : config.host,
    } as unknown as { port: number; host: string });
    startup.handedOver();
    url = address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
  }
  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    infrastructure: connected,
    targets,
    // Stop taking requests, let in-flight ones finish and consumers drain (onClose hooks), then disconnect.
    close: () => (closing ??= app.close().then(() => closeInfrastructure(connected))),
  };
}
