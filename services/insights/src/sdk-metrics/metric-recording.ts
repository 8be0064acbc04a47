import { metricsProjects, type MetricsMessage } from '@bunting/contracts';
import type { DatabasePool, Queryable } from '@bunting/platform';
import type { AnnounceApplications } from '../applications/application-events.ts';
import { recordSightings } from '../applications/application-sightings.ts';
import type { InstanceSighting } from '../applications/application-sightings.ts';
import { metricFacts, type MetricRow, type Registration } from './metric-facts.ts';
import { metricStore } from './metric-store.ts';

/** One metrics message of a run, with its stream sequence (what makes recording it idempotent). */
export type SequencedMetrics = { message: MetricsMessage; sequence: number };

/** The names among these that no flag has (admin-api's inventory decides). */
export type UnknownAmong = (names: readonly string[]) => Promise<ReadonlySet<string>>;

/** Records what else the messages carry (their impact metrics) in the same transaction, so it too is kept once. */
export type RecordAlongside = (tx: Queryable, messages: readonly MetricsMessage[]) => Promise<void>;

const carriesImpact = (message: MetricsMessage) =>
  message.kind === 'tracked-units' ||
  ((message.kind === 'client-metrics' || message.kind === 'bulk-metrics') &&
    Array.isArray(message.body.impactMetrics) &&
    message.body.impactMetrics.length > 0);

/**
 * Keeps the rows about flags no project has only while the names of such flags stay within bounds (per application
 * and in all); a name seen before is always kept.
 */
async function withinUnknownBounds(
  tx: Queryable,
  rows: MetricRow[],
  unknown: ReadonlySet<string>,
): Promise<MetricRow[]> {
  await metricStore.lockUnknownFlags(tx);
  const kept: MetricRow[] = [];
  const admitted = new Set<string>();
  for (const row of rows) {
    if (!unknown.has(row.feature)) {
      kept.push(row);
      continue;
    }
    const key = `${row.app}\u0000${row.feature}`;
    if (!admitted.has(key)) {
      if (!(await metricStore.admitUnknownFlag(tx, row.app, row.feature))) continue;
      admitted.add(key);
    }
    kept.push(row);
  }
  return kept;
}

/**
 * The rows a message may count, by its token's projects: a flag insights knows to be another project's is left out
 * (the edge admits a few names it does not hold, and one may be a flag it has not heard of yet).
 */
async function withinProjects(
  tx: Queryable,
  recorded: readonly { message: MetricsMessage; facts: { rows: MetricRow[] } }[],
): Promise<MetricRow[][]> {
  const scoped = recorded.map(({ message, facts }) => ({ projects: metricsProjects(message), rows: facts.rows }));
  const names = new Set(scoped.flatMap(({ projects, rows }) => (projects ? rows.map((row) => row.feature) : [])));
  const projectOf = await metricStore.projectsOf(tx, [...names]);
  return scoped.map(({ projects, rows }) =>
    projects === undefined
      ? rows
      : rows.filter((row) => {
          const project = projectOf.get(row.feature);
          return project === undefined || projects.has(project);
        }),
  );
}

/**
 * Adds one metrics or registration message to the hourly sums and the list of applications. Sums are not
 * idempotent by themselves, so the message's stream sequence is recorded in the same transaction and a
 * redelivered message changes nothing.
 */
export function recordMetrics(
  db: DatabasePool,
  message: MetricsMessage,
  streamSequence: number,
  announce: AnnounceApplications,
  unknownAmong: UnknownAmong = async () => new Set(),
  alongside?: RecordAlongside,
): Promise<void> {
  return recordMetricsRun(db, [{ message, sequence: streamSequence }], announce, unknownAmong, alongside);
}

/** The latest of two ISO times (either may be absent). */
const later = (a: string | undefined, b: string) => (a === undefined || Date.parse(b) > Date.parse(a) ? b : a);

/**
 * Records a run of messages as recordMetrics records each, in ONE transaction and a few statements: under a fleet's
 * posts (hundreds a second) a transaction per message, each with its own commit, left insights seconds behind. Rows
 * for the same hour, application, environment and flag are summed into one upsert, in key order, so two replicas'
 * runs take their row locks in the same order. Messages already recorded (by sequence) are left out.
 */
export async function recordMetricsRun(
  db: DatabasePool,
  run: readonly SequencedMetrics[],
  announce: AnnounceApplications,
  unknownAmong: UnknownAmong = async () => new Set(),
  alongside?: RecordAlongside,
): Promise<void> {
  const items = run
    .map((item) => ({ ...item, facts: metricFacts(item.message) }))
    .filter((item) => item.facts.apps.length > 0 || carriesImpact(item.message));
  if (items.length === 0) return;
  const unknown = await unknownAmong([...new Set(items.flatMap((item) => item.facts.rows.map((row) => row.feature)))]);
  await db.transaction(async (tx) => {
    const fresh = await metricStore.markProcessed(
      tx,
      items.map((item) => item.sequence),
    );
    const recorded = items.filter((item) => fresh.has(item.sequence));
    if (recorded.length === 0) return;

    // Each application's last sighting, and each instance's: the latest time, and the last SDK version told in order.
    const lastSeen = new Map<string, string>();
    const instances = new Map<string, InstanceSighting>();
    const registrations: Registration[] = [];
    const rows: MetricRow[] = [];
    for (const { message, facts } of recorded) {
      for (const app of facts.apps) lastSeen.set(app, later(lastSeen.get(app), message.receivedAt));
      for (const instance of facts.instances) {
        const key = `${instance.app}\u0000${instance.instanceId}\u0000${instance.environment}`;
        const known = instances.get(key);
        instances.set(key, {
          ...(known ?? instance),
          sdkVersion: instance.sdkVersion ?? known?.sdkVersion ?? null,
          lastSeen: later(known?.lastSeen, message.receivedAt),
        });
      }
      if (facts.registration) registrations.push(facts.registration);
    }
    await recordSightings(tx, { lastSeen, instances: [...instances.values()], registrations }, announce);
    for (const allowed of await withinProjects(tx, recorded)) {
      const kept =
        unknown.size === 0 || !allowed.some((row) => unknown.has(row.feature))
          ? allowed
          : await withinUnknownBounds(tx, allowed, unknown);
      rows.push(...kept);
    }
    await metricStore.addHours(tx, rows);
    if (alongside)
      await alongside(
        tx,
        recorded.map((item) => item.message),
      );
  });
}
