import type { EnvironmentSnapshot } from '@bunting/contracts';

/**
 * A held snapshot with some of its flags read again: each named flag is replaced where it stood, added where the name
 * order puts it (admin-api orders flags by name byte by byte, as JavaScript compares these ASCII names), or removed
 * when the fresh read no longer has it (archived, deleted, moved out of the environment); the segments are the
 * fresh ones.
 */
export function mergeSnapshot(held: EnvironmentSnapshot, fresh: EnvironmentSnapshot, names: ReadonlySet<string>): EnvironmentSnapshot {
  const replacements = new Map(fresh.features.map((feature) => [feature.name, feature]));
  const kept = [];
  for (const feature of held.features) {
    if (!names.has(feature.name)) kept.push(feature);
    else if (replacements.has(feature.name)) {
      kept.push(replacements.get(feature.name)!);
      replacements.delete(feature.name);
    }
  }
  const added = [...replacements.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const features = [];
  let next = 0;
  for (const feature of kept) {
    while (next < added.length && added[next]!.name < feature.name) features.push(added[next++]!);
    features.push(feature);
  }
  features.push(...added.slice(next));
  return { environment: held.environment, features, segments: fresh.segments };
}

/**
 * Which flags of an environment SDKs may see differently since a snapshot covering a stream sequence: each flag's
 * own events are remembered with their sequence; an event that is not about one flag (a segment, a project's
 * environments, an import) means everything may have changed.
 */
export function createChangedFlags() {
  const byEnvironment = new Map<string, Map<string, number>>();
  const everywhere = new Map<string, number>();
  const wholeSince = new Map<string, number>();
  let wholeEverywhereSince = 0;

  const note = (names: Map<string, number>, name: string, sequence: number) => names.set(name, Math.max(names.get(name) ?? 0, sequence));

  return {
    /** A flag's event; environment null when it concerns the flag in every environment. */
    flag(environment: string | null, name: string, sequence: number) {
      if (environment === null) note(everywhere, name, sequence);
      else note(byEnvironment.get(environment) ?? byEnvironment.set(environment, new Map()).get(environment)!, name, sequence);
    },
    /** An event that may change any flag of an environment, or of every environment (null). */
    whole(environment: string | null, sequence: number) {
      if (environment === null) wholeEverywhereSince = Math.max(wholeEverywhereSince, sequence);
      else wholeSince.set(environment, Math.max(wholeSince.get(environment) ?? 0, sequence));
    },
    /** The flags changed after `covered`, or null when more than flags may have changed. */
    since(environment: string, covered: number): Set<string> | null {
      if (Math.max(wholeEverywhereSince, wholeSince.get(environment) ?? 0) > covered) return null;
      const names = new Set<string>();
      for (const source of [everywhere, byEnvironment.get(environment)]) {
        for (const [name, sequence] of source ?? []) if (sequence > covered) names.add(name);
      }
      return names;
    },
    /**
     * Forgets what every snapshot held already covers: `covered` gives each held environment's sequence, and what
     * an environment not held needs is never asked (it is loaded whole).
     */
    forget(covered: ReadonlyMap<string, number>) {
      for (const [environment, names] of byEnvironment) {
        const floor = covered.get(environment);
        if (floor === undefined) byEnvironment.delete(environment);
        else for (const [name, sequence] of names) if (sequence <= floor) names.delete(name);
      }
      const lowest = Math.min(...covered.values());
      for (const [name, sequence] of everywhere) if (sequence <= lowest) everywhere.delete(name);
    },
  };
}
