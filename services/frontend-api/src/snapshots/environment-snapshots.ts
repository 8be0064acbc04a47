import type { EnvironmentSnapshot } from '@bunting/contracts';
import { DomainError, type Logger } from '@bunting/platform';
import { compileEnvironment, type CompiledEnvironment } from './compiled-environment.ts';
import { createRevisionHistory, diffNamed, diffSnapshots, type RevisionChange } from './revision-changes.ts';
import type { InstallKind, SnapshotStore } from './snapshot-source.ts';
import { mergeSets, type FeatureSet, type SnapshotFeature } from './feature-set.ts';
import { createSharedFeatures } from './shared-features.ts';

/** An environment kept from before a restart: its revision at once, its flags read when first asked for. */
export type KeptEnvironment = {
  environment: string;
  revision: number;
  read: () => Promise<{ snapshot: EnvironmentSnapshot } | undefined>;
};

export type EnvironmentSnapshots = SnapshotStore & {
  /**
   * A source's set for an environment as it now is; the environment is merged from its sources and installed on the
   * next turn if it changed. `revision` is the source's own numbering when it has one (the cluster's feed): every
   * replica then names a revision alike. Without it, revisions count on from the last one here.
   */
  put: (
    environment: string,
    source: string,
    set: FeatureSet,
    options?: { revision?: number; how?: InstallKind; changed?: readonly string[] },
  ) => void;
  /** An environment kept from before a restart, served (read and compiled when first asked for) until a source answers. */
  restore: (kept: KeptEnvironment) => void;
  /** A source no longer followed: its flags leave the environment at the next change. */
  drop: (environment: string, source: string) => void;
};

type Deps = {
  hostname: string;
  log: Logger;
  /**
   * Starts getting an environment not held (the cluster follows its feed); says whether it is on its way, once the
   * source caught up with what it held when asked (a replica's first answer is as fresh as any other's).
   */
  request: (environment: string) => boolean | Promise<boolean>;
  /** How long a request waits for an environment on its way. */
  waitMs: number;
  onInstall?: (revision: number, snapshot: EnvironmentSnapshot) => void;
};

/**
 * The flags `source` holds that another source of the environment holds too. A source's new set becomes the last
 * updated, so each of these is now taken from it (mergeSets) and may change though its delta did not name it.
 */
function sharedNames(bySource: Map<string, { set: FeatureSet }>, source: string): string[] {
  const own = bySource.get(source)!.set.features;
  const names: string[] = [];
  for (const [other, { set }] of bySource) {
    if (other === source) continue;
    const [fewer, more] = own.size <= set.features.size ? [own, set.features] : [set.features, own];
    for (const name of fewer.keys()) if (more.has(name)) names.push(name);
  }
  return names;
}

/**
 * The SDK edge's snapshots, whoever feeds them: each environment is the union of the sets of its sources (the
 * cluster's feed is one source; a standalone edge's are the scopes it follows upstream), compiled once per change
 * with what the revision before compiled for the flags that stayed the same object, with the revision history delta
 * and streaming SDKs need and listeners told of each install. A burst of sets for one environment compiles once.
 */
export function createEnvironmentSnapshots(deps: Deps): EnvironmentSnapshots {
  const states = new Map<string, CompiledEnvironment & { installedAt: number; compileMs: number; notifyMs: number }>();
  const sources = new Map<string, Map<string, { set: FeatureSet; updatedAt: number }>>();
  const pending = new Map<string, { revision?: number; how: InstallKind; changed?: Set<string> }>();
  const history = createRevisionHistory();
  const installCounts = new Map<string, Record<InstallKind, number>>();
  const listeners = new Map<string, Set<(compiled: CompiledEnvironment) => void>>();
  const waiting = new Map<string, Set<() => void>>();
  const restored = new Map<string, KeptEnvironment>();
  const reading = new Map<string, Promise<void>>();
  /** Environments a source left since their last install, which a delta's names would not cover. */
  const dropped = new Set<string>();
  let clock = 0;
  // Equal flags of several environments are compiled once (shared-features.ts).
  const shared = createSharedFeatures();

  function install(snapshot: EnvironmentSnapshot, revision: number, how: InstallKind, change?: RevisionChange) {
    const environment = snapshot.environment;
    const existing = states.get(environment);
    const started = performance.now();
    const built = compileEnvironment(snapshot, revision, deps.hostname, existing, shared);
    const compiledAt = performance.now();
    const compiled = Object.assign(built, { installedAt: Date.now(), compileMs: compiledAt - started, notifyMs: 0 });
    states.set(environment, compiled);
    if (change) history.record(environment, change);
    const counts =
      installCounts.get(environment) ??
      installCounts.set(environment, { whole: 0, delta: 0, kept: 0 }).get(environment)!;
    counts[how] += 1;
    for (const wake of waiting.get(environment) ?? []) wake();
    waiting.delete(environment);
    setImmediate(() => {
      for (const listener of listeners.get(environment) ?? []) {
        try {
          listener(compiled);
        } catch (error) {
          deps.log.warn({ err: error, environment }, 'a snapshot listener failed');
        }
      }
      compiled.notifyMs = performance.now() - compiledAt;
    });
  }

  function installMerged(environment: string) {
    const wanted = pending.get(environment);
    pending.delete(environment);
    const sets = [...(sources.get(environment)?.values() ?? [])];
    if (sets.length === 0 || !wanted) return;
    const { snapshot, byName } = mergeSets(environment, sets);
    namedFlags.set(snapshot, byName);
    const existing = states.get(environment);
    if (wanted.revision !== undefined && existing && wanted.revision <= existing.revision) return;
    const revision = wanted.revision ?? (existing?.revision ?? restored.get(environment)?.revision ?? 0) + 1;
    restored.delete(environment);
    let change: RevisionChange | undefined;
    if (existing) {
      // Comparing every flag costs tens of milliseconds at 10,000: a delta names the few it changed.
      change = wanted.changed
        ? diffNamed(sideOf(existing.snapshot), sideOf(snapshot), [...wanted.changed], existing.revision, revision)
        : diffSnapshots(existing.snapshot, snapshot, existing.revision, revision);
      // The same flags again (a restarted upstream's first answer, a poll after a kept start): nothing to send.
      if (wanted.revision === undefined && change.features.size === 0 && change.segments.size === 0) return;
    }
    install(snapshot, revision, wanted.how, change);
    deps.onInstall?.(revision, snapshot);
  }

  return {
    put(environment, source, set, options = {}) {
      const bySource = sources.get(environment) ?? sources.set(environment, new Map()).get(environment)!;
      bySource.set(source, { set, updatedAt: (clock += 1) });
      const held = pending.get(environment);
      // Several sets before the next turn: the last revision, and a delta only if every one was a delta naming its flags.
      const delta =
        options.how === 'delta' &&
        options.changed !== undefined &&
        !dropped.has(environment) &&
        (!held || held.changed !== undefined);
      if (!delta) dropped.delete(environment);
      pending.set(environment, {
        ...(options.revision !== undefined ? { revision: options.revision } : {}),
        how: delta ? 'delta' : options.how === 'kept' ? 'kept' : 'whole',
        ...(delta
          ? { changed: new Set([...(held?.changed ?? []), ...options.changed!, ...sharedNames(bySource, source)]) }
          : {}),
      });
      if (held) return;
      setImmediate(() => installMerged(environment));
    },
    restore(kept) {
      if (!states.has(kept.environment)) restored.set(kept.environment, kept);
    },
    drop(environment, source) {
      sources.get(environment)?.delete(source);
      // The flags only it held leave without being named: the next install compares every flag.
      dropped.add(environment);
    },
    current: (environment) => states.get(environment),
    async ensure(environment) {
      const held = states.get(environment);
      if (held) return held;
      if (restored.has(environment)) {
        let reads = reading.get(environment);
        if (!reads) {
          const kept = restored.get(environment)!;
          reads = kept
            .read()
            .then((stored) => {
              if (stored && restored.get(environment) === kept) install(stored.snapshot, kept.revision, 'kept');
            })
            .finally(() => reading.delete(environment));
          reading.set(environment, reads);
        }
        await reads;
        const loaded = states.get(environment);
        if (loaded) return loaded;
      }
      if (await deps.request(environment)) {
        if (states.has(environment) && !pending.has(environment)) return states.get(environment)!;
        await new Promise<void>((resolve) => {
          const set = waiting.get(environment) ?? waiting.set(environment, new Set()).get(environment)!;
          const timer = setTimeout(() => {
            set.delete(done);
            resolve();
          }, deps.waitMs);
          const done = () => {
            clearTimeout(timer);
            resolve();
          };
          set.add(done);
        });
        const loaded = states.get(environment);
        if (loaded) return loaded;
      }
      throw new DomainError(
        503,
        'ServiceUnavailableError',
        `The flags of ${environment} are not here yet; try again shortly.`,
        { headers: { 'retry-after': '2' } },
      );
    },
    changesSince(environment, revision) {
      const state = states.get(environment);
      return state ? history.since(environment, revision, state.revision) : null;
    },
    subscribe(environment, listener) {
      const set = listeners.get(environment) ?? listeners.set(environment, new Set()).get(environment)!;
      set.add(listener);
      return () => set.delete(listener);
    },
    held: () => [
      ...[...states.values()].map(({ environment, revision, installedAt, compileMs, notifyMs }) => ({
        environment,
        revision,
        installedAt,
        compileMs,
        notifyMs,
      })),
      // Kept from before a restart and not asked for yet: served on first use.
      ...[...restored.values()]
        .filter((kept) => !states.has(kept.environment))
        .map(({ environment, revision }) => ({
          environment,
          revision,
          installedAt: Date.now(),
          compileMs: 0,
          notifyMs: 0,
        })),
    ],
    installs: () =>
      [...installCounts].flatMap(([environment, counts]) =>
        (Object.keys(counts) as InstallKind[]).map((how) => ({ environment, how, count: counts[how] })),
      ),
  };
}

/**
 * Each snapshot's flags by name, as merged: a one-flag delta at 10,000 flags spent half its install building two
 * such maps again. A snapshot installed without one (kept from before a restart) has its map made when first compared.
 */
const namedFlags = new WeakMap<EnvironmentSnapshot, ReadonlyMap<string, SnapshotFeature>>();

/** A snapshot as diffNamed compares it: each flag by name. */
function sideOf(snapshot: EnvironmentSnapshot) {
  let byName = namedFlags.get(snapshot);
  if (byName === undefined) {
    byName = new Map(snapshot.features.map((feature) => [feature.name, feature]));
    namedFlags.set(snapshot, byName);
  }
  return { snapshot, featureNamed: (name: string) => byName.get(name) };
}
