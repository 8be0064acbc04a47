import {
  infrastructureFor,
  type Connection,
  type Infrastructure,
  type ServiceInfrastructure,
  type ServicePlugin,
} from '@bunting/platform';

/** A mountable service: the connections it needs, those it keeps answering without, and how it is built. */
export type ServiceEntry = {
  needs: readonly Connection[];
  /** Connections whose loss the service rides out (it reports it in /ready without becoming unready). */
  tolerates: readonly Connection[];
  build: (infrastructure: Infrastructure) => Promise<ServicePlugin>;
};

/**
 * A service's code is imported only by a process that mounts it: a standalone edge or a lone frontend-api replica
 * starts without loading admin-api's module graph (about half a second and tens of MiB here).
 */
function service<K extends Connection>(
  needs: readonly K[],
  build: (infrastructure: ServiceInfrastructure<K>) => Promise<ServicePlugin>,
  tolerates: readonly K[] = [],
): ServiceEntry {
  return { needs, tolerates, build: (infrastructure) => build(infrastructureFor(infrastructure, needs)) };
}

/** Every service the launcher can mount, in the order they start when several share a process. */
export const SERVICES = {
  'admin-api': service(['db', 'messaging', 'redis'], async (infrastructure) =>
    (await import('@bunting/admin-api/app')).adminApi(infrastructure),
  ),
  'event-log': service(['db', 'messaging', 'verifier'], async (infrastructure) =>
    (await import('@bunting/event-log/app')).eventLog(infrastructure),
  ),
  // The SDK edge answers from memory: it never needs Postgres, and rides out NATS and Redis outages.
  'frontend-api': service(
    ['messaging'],
    async (infrastructure) => (await import('@bunting/frontend-api/app')).frontendApi(infrastructure),
    ['messaging'],
  ),
  signals: service(['db', 'messaging', 'redis', 'verifier'], async (infrastructure) =>
    (await import('@bunting/signals/app')).signalsService(infrastructure),
  ),
  insights: service(['db', 'messaging', 'verifier'], async (infrastructure) =>
    (await import('@bunting/insights/app')).insights(infrastructure),
  ),
  // The standalone edge: the SDK edge in front of any Unleash-compatible server (UPSTREAM_URL); needs nothing else.
  edge: service([], async (infrastructure) => (await import('@bunting/frontend-api/edge')).edgeApi(infrastructure)),
} satisfies Record<string, ServiceEntry>;

export type ServiceName = keyof typeof SERVICES;
/** The services of a Bunting cluster ("all"); the standalone edge runs on its own. */
export const SERVICE_NAMES = (Object.keys(SERVICES) as ServiceName[]).filter((name) => name !== 'edge');

/** "all", "edge" or a comma-separated list of the cluster's service names. */
export function parseTargets(target: string): ServiceName[] {
  if (target === 'all') return SERVICE_NAMES;
  const names = target
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(name in SERVICES))
      throw new Error(`Unknown target "${name}"; expected all, edge or one of ${SERVICE_NAMES.join(', ')}`);
  }
  if (names.includes('edge') && names.length > 1)
    throw new Error(
      'The edge target runs alone: it serves the same routes as frontend-api, from an upstream instead of the cluster',
    );
  return names as ServiceName[];
}

/** The connections the targets need, and those every target needing them tolerates losing. */
export function connectionsOf(targets: readonly ServiceName[]): { needs: Set<Connection>; tolerated: Set<Connection> } {
  const entries: ServiceEntry[] = targets.map((target) => SERVICES[target]);
  const needs = new Set(entries.flatMap((entry) => entry.needs));
  const tolerated = new Set(
    [...needs].filter((connection) =>
      entries.every((entry) => !entry.needs.includes(connection) || entry.tolerates.includes(connection)),
    ),
  );
  return { needs, tolerated };
}
