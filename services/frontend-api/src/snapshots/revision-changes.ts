import type { EnvironmentSnapshot } from '@bunting/contracts';

/** What changed from one revision of an environment to the next, by flag name and segment id. */
export type RevisionChange = {
  from: number;
  to: number;
  /** Flags added, changed or removed; for removed ones, the project they were in. */
  features: Map<string, string>;
  segments: Set<number>;
};

/** Everything that changed since a revision, merged; null when it is too old to know (send everything). */
export type ChangesSince = { features: Map<string, string>; segments: Set<number> };

const byId = (snapshot: EnvironmentSnapshot) =>
  new Map(snapshot.segments.map((segment) => [segment.id, JSON.stringify(segment)]));

/** A side of a comparison: its snapshot and each flag as it holds it. */
type Side = { snapshot: EnvironmentSnapshot; featureNamed: (name: string) => { project?: string | null } | undefined };

/** Compares two snapshots of one environment feature by feature and segment by segment. */
export function diffSnapshots(
  before: EnvironmentSnapshot,
  after: EnvironmentSnapshot,
  from: number,
  to: number,
): RevisionChange {
  const old = new Map(before.features.map((feature) => [feature.name, feature]));
  const next = new Map(after.features.map((feature) => [feature.name, feature]));
  const names = [...next.keys(), ...[...old.keys()].filter((name) => !next.has(name))];
  return diffNamed(
    { snapshot: before, featureNamed: (name) => old.get(name) },
    { snapshot: after, featureNamed: (name) => next.get(name) },
    names,
    from,
    to,
  );
}

/**
 * The same comparison when the flags that may have changed are known: only those are compared (a flag named but as it
 * was is left out), with every segment. A flag removed counts in the project it was in.
 */
export function diffNamed(
  before: Side,
  after: Side,
  names: readonly string[],
  from: number,
  to: number,
): RevisionChange {
  const features = new Map<string, string>();
  for (const name of names) {
    const previous = before.featureNamed(name);
    const next = after.featureNamed(name);
    if (previous === undefined && next === undefined) continue;
    if (previous === undefined || next === undefined || JSON.stringify(previous) !== JSON.stringify(next)) {
      features.set(name, (next ?? previous)!.project ?? '');
    }
  }
  return { from, to, features, segments: changedSegments(before.snapshot, after.snapshot) };
}

function changedSegments(before: EnvironmentSnapshot, after: EnvironmentSnapshot): Set<number> {
  const segments = new Set<number>();
  const oldSegments = byId(before);
  const nextSegments = byId(after);
  for (const [id, json] of nextSegments) if (oldSegments.get(id) !== json) segments.add(id);
  for (const id of oldSegments.keys()) if (!nextSegments.has(id)) segments.add(id);
  return segments;
}

const KEPT = 200;

/** The last revisions' changes of each environment, so an SDK that has revision r can be sent only what is newer. */
export function createRevisionHistory() {
  const history = new Map<string, RevisionChange[]>();
  return {
    record(environment: string, change: RevisionChange) {
      const list = history.get(environment) ?? [];
      list.push(change);
      if (list.length > KEPT) list.shift();
      history.set(environment, list);
    },
    /** The changes from `revision` to `current`, if an unbroken chain of them is known. */
    since(environment: string, revision: number, current: number): ChangesSince | null {
      if (revision === current) return { features: new Map(), segments: new Set() };
      const list = history.get(environment) ?? [];
      const start = list.findIndex((change) => change.from === revision);
      if (start < 0) return null;
      const merged: ChangesSince = { features: new Map(), segments: new Set() };
      let at = revision;
      for (const change of list.slice(start)) {
        if (change.from !== at) return null;
        for (const [name, project] of change.features) merged.features.set(name, project);
        for (const id of change.segments) merged.segments.add(id);
        at = change.to;
      }
      return at === current ? merged : null;
    },
  };
}
