import {
  closeInfrastructure,
  connectInfrastructure,
  createHttpServer,
  createLogger,
  readPlatformConfig,
  readinessChecks,
  registerHealthRoutes,
  type Env,
  type HttpServer,
  type Infrastructure,
} from '@bunting/platform';
import { SERVICES, parseTargets, type ServiceName } from './services.ts';

export type Stack = {
  app: HttpServer;
  url: string;
  infrastructure: Infrastructure;
  targets: ServiceName[];
  close: () => Promise<void>;
};

/**
 * Builds one process: shared connections, one HTTP server, and the targeted services mounted on it.
 * The same function serves `npm start` (all), a single-service deployment and the tests.
 */
export async function startStack(options: { target?: string; env?: Env; listen?: boolean } = {}): Promise<Stack> {
  const env = options.env ?? process.env;
  const config = readPlatformConfig(env);
  const targets = parseTargets(options.target ?? env.BUNTING_TARGET ?? 'all');
  const log = createLogger(config.logLevel, targets.length > 1 ? 'bunting' : targets[0]!);
  const infrastructure = await connectInfrastructure(config, log, env);
  const app = createHttpServer({ log, bodyLimit: config.bodyLimit });
  registerHealthRoutes(app, readinessChecks(infrastructure));
  for (const target of targets) await app.register(SERVICES[target](infrastructure));
  await app.ready();
  let url = '';
  if (options.listen ?? true) {
    const address = await app.listen({ port: config.port, host: config.host });
    url = address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
  }
  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    infrastructure,
    targets,
    // Stop taking requests, let in-flight ones finish and consumers drain (onClose hooks), then disconnect.
    close: () => (closing ??= app.close().then(() => closeInfrastructure(infrastructure))),
  };
}
