import { metricsEnvironment, metricsProjects, type MetricsMessage } from '@bunting/contracts';
import { recordKeeping } from '../events/write-tx.ts';
import type { DatabasePool, Queryable } from '@bunting/platform';
import { environmentState } from '../feature-state/environment-state.ts';
import { lastSeenStore } from './last-seen-store.ts';

const evaluated = (counts: { yes?: number | undefined; no?: number | undefined }) =>
  (counts.yes ?? 0) + (counts.no ?? 0) > 0;

/**
 * The flags a metrics message shows evaluated at least once, per environment: an SDK's bucket counts in its
 * token's environment, a bulk post's entries in their own if the token may speak for it. Registrations show none.
 */
export function seenFlags(message: MetricsMessage): Map<string, string[]> {
  return new Map([...exposures(message)].map(([environment, flags]) => [environment, [...flags.keys()]]));
}

export type Exposure = { yes: number; no: number };

/** The yes and no counts a metrics message reports, per environment and flag (flags never evaluated left out). */
export function exposures(message: MetricsMessage): Map<string, Map<string, Exposure>> {
  const counted = new Map<string, Map<string, Exposure>>();
  const add = (environment: string, name: string, counts: { yes?: number | undefined; no?: number | undefined }) => {
    if (name.length === 0 || name.length > 255 || !evaluated(counts)) return;
    const flags = counted.get(environment) ?? new Map<string, Exposure>();
    const sum = flags.get(name) ?? { yes: 0, no: 0 };
    flags.set(name, { yes: sum.yes + Math.max(0, counts.yes ?? 0), no: sum.no + Math.max(0, counts.no ?? 0) });
    counted.set(environment, flags);
  };
  if (message.kind === 'client-metrics' || message.kind === 'frontend-metrics') {
    for (const [name, counts] of Object.entries(message.body.bucket.toggles)) add(message.environment, name, counts);
  } else if (message.kind === 'bulk-metrics') {
    for (const metric of message.body.metrics ?? []) {
      const environment = metricsEnvironment(message, metric.environment);
      if (environment) add(environment, metric.featureName, metric);
    }
  }
  return counted;
}

/** The counts left once flags outside the token's projects are taken out (the edge may not have known whose they were). */
async function withinProjects(
  db: Queryable,
  counted: Map<string, Map<string, Exposure>>,
  projects: ReadonlySet<string> | undefined,
): Promise<Map<string, Map<string, Exposure>>> {
  if (projects === undefined) return counted;
  const names = new Set([...counted.values()].flatMap((flags) => [...flags.keys()]));
  const allowed = await lastSeenStore.ofProjects(db, [...names], projects);
  return new Map(
    [...counted].map(([environment, flags]) => [
      environment,
      new Map([...flags].filter(([name]) => allowed.has(name))),
    ]),
  );
}

/**
 * Marks the flags an SDK reported as seen in their environment at the time the metrics arrived (the later of the
 * stored and the new time wins) and adds their yes/no counts to the hour they arrived in. Sums would double on a
 * redelivery, so the message's stream sequence is recorded in the same transaction. Unknown flags are skipped, and
 * so are flags of projects the token does not have.
 */
export async function recordLastSeen(db: DatabasePool, message: MetricsMessage, streamSequence: number): Promise<void> {
  const counted = exposures(message);
  if (counted.size === 0) return;
  await recordKeeping(db, async (tx) => {
    if (!(await lastSeenStore.claimMessage(tx, streamSequence))) return;
    for (const [environment, flags] of await withinProjects(tx, counted, metricsProjects(message))) {
      if (flags.size === 0) continue;
      await environmentState.markSeen(tx, environment, [...flags.keys()], message.receivedAt);
      await lastSeenStore.addExposures(tx, environment, message.receivedAt, flags);
    }
  });
}
