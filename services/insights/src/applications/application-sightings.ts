import type { Queryable } from '@bunting/platform';
import type { AnnounceApplications } from './application-events.ts';
import { applicationStore, type InstanceSighting } from './application-store.ts';

export type { InstanceSighting } from './application-store.ts';

/** What a run of SDK messages showed of applications: when each was last seen, its instances, what registrations said. */
export type Sightings = {
  lastSeen: ReadonlyMap<string, string>;
  instances: readonly InstanceSighting[];
  registrations: readonly { app: string; sdkVersion: string | null; strategies: string[] }[];
};

/**
 * Records sightings in the caller's transaction: applications seen for the first time are added (and announced),
 * every one's last sighting moves forward, instances are kept in key order (two replicas' runs take their row locks
 * in the same order), and registrations set the SDK version and strategies.
 */
export async function recordSightings(tx: Queryable, sightings: Sightings, announce: AnnounceApplications) {
  const apps = [...sightings.lastSeen.keys()].sort();
  const times = apps.map((app) => sightings.lastSeen.get(app)!);
  await announce(tx, await applicationStore.addSeen(tx, apps, times));
  const key = (item: InstanceSighting) => `${item.app}\u0000${item.instanceId}\u0000${item.environment}`;
  await applicationStore.recordInstances(
    tx,
    [...sightings.instances].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)),
  );
  await applicationStore.markSeen(tx, apps, times);
  for (const registration of sightings.registrations) await applicationStore.setRegistration(tx, registration);
}

/** Instances not seen since the given time are forgotten (the retention of client instances). */
export const dropInstancesNotSeenSince = (db: Queryable, since: string) =>
  applicationStore.dropInstancesNotSeenSince(db, since);
