import type { EnvironmentSnapshot } from '@bunting/contracts';
import { DomainError, type Logger } from '@bunting/platform';
import { compileEnvironment, type CompiledEnvironment } from '../snapshots/compiled-environment.ts';
import { createRevisionHistory, diffSnapshots } from '../snapshots/revision-changes.ts';
import type { InstallKind, SnapshotStore } from '../snapshots/snapshot-source.ts';
import type { RestoredEnvironment } from './edge-persistence.ts';
import { mergeSets, type FeatureSet } from './feature-set.ts';

export type EdgeSnapshots = SnapshotStore & {
  /** A scope's set as the upstream now has it; the environment is merged from its scopes and installed if it changed. */
  put: (environment: string, scope: string, set: FeatureSet) => void;
  /** An environment kept from before a restart, served (read and compiled when first asked for) until the upstream answers. */
  restore: (kept: RestoredEnvironment) => void;
  /** A scope no longer followed (its token was revoked): its flags leave the environment at the next change. */
  drop: (environment: string, scope: string) => void;
};

type Deps = {
  hostname: string;
  log: Logger;
  /** Whether a feed for the environment is starting, so a request may wait for its first answer. */
  following: (environment: string) => boolean;
  /** How long a request waits for an environment that is being fetched. */
  waitMs: number;
  onInstall: (revision: number, snapshot: EnvironmentSnapshot) => void;
};

/**
 * The standalone edge's snapshots: the same compiled environments, revision history and listeners as the cluster's
 * snapshot store, fed from the upstream's client API instead of the event stream. Each environment is the union of
 * the scopes followed in it; a scope's new set is merged and installed on the next turn, so a burst of changes to
 * several scopes compiles once.
 */
export function createEdgeSnapshots(deps: Deps): EdgeSnapshots {
  const states = new Map<string, CompiledEnvironment & { installedAt: number; compileMs: number }>();
  const scopes = new Map<string, Map<string, { set: FeatureSet; updatedAt: number }>>();
  const pending = new Set<string>();
  const history = createRevisionHistory();
  const installCounts = new Map<string, Record<InstallKind, number>>();
  const listeners = new Map<string, Set<(compiled: CompiledEnvironment) => void>>();
  const waiting = new Map<string, Set<() => void>>();
  const restored = new Map<string, RestoredEnvironment>();
  const reading = new Map<string, Promise<void>>();
  let clock = 0;

  function install(snapshot: EnvironmentSnapshot, revision: number, how: InstallKind) {
    const environment = snapshot.environment;
    const existing = states.get(environment);
    const started = performance.now();
    const built = compileEnvironment(snapshot, revision, deps.hostname, existing);
    const compiled = Object.assign(built, { installedAt: Date.now(), compileMs: performance.now() - started });
    states.set(environment, compiled);
    const counts = installCounts.get(environment) ?? installCounts.set(environment, { built: 0, patch: 0, copy: 0 }).get(environment)!;
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
    });
  }

  function installMerged(environment: string) {
    pending.delete(environment);
    const sets = [...(scopes.get(environment)?.values() ?? [])];
    if (sets.length === 0) return;
    const snapshot = mergeSets(environment, sets);
    const existing = states.get(environment);
    // The upstream's flags replace any kept from before a restart; the revisions count on from those.
    const revision = (existing?.revision ?? restored.get(environment)?.revision ?? 0) + 1;
    restored.delete(environment);
    if (existing) {
      const change = diffSnapshots(existing.snapshot, snapshot, existing.revision, revision);
      // The same flags again (a restarted upstream's first answer, a poll after a persisted start): nothing to send.
      if (change.features.size === 0 && change.segments.size === 0) return;
      history.record(environment, change);
    }
    install(snapshot, revision, 'built');
    deps.onInstall(revision, snapshot);
  }

  return {
    put(environment, scope, set) {
      const byScope = scopes.get(environment) ?? scopes.set(environment, new Map()).get(environment)!;
      byScope.set(scope, { set, updatedAt: (clock += 1) });
      if (pending.has(environment)) return;
      pending.add(environment);
      setImmediate(() => installMerged(environment));
    },
    restore(kept) {
      if (!states.has(kept.environment)) restored.set(kept.environment, kept);
    },
    drop(environment, scope) {
      scopes.get(environment)?.delete(scope);
    },
    current: (environment) => states.get(environment),
    async ensure(environment) {
      const held = states.get(environment);
      if (held) return held;
      if (restored.has(environment)) {
        let pending = reading.get(environment);
        if (!pending) {
          const kept = restored.get(environment)!;
          pending = kept.read().then((stored) => {
            if (stored && restored.get(environment) === kept) install(stored.snapshot, kept.revision, 'copy');
          }).finally(() => reading.delete(environment));
          reading.set(environment, pending);
        }
        await pending;
        const loaded = states.get(environment);
        if (loaded) return loaded;
      }
      if (deps.following(environment)) {
        await new Promise<void>((resolve) => {
          const set = waiting.get(environment) ?? waiting.set(environment, new Set()).get(environment)!;
          const timer = setTimeout(() => { set.delete(done); resolve(); }, deps.waitMs);
          const done = () => { clearTimeout(timer); resolve(); };
          set.add(done);
        });
        const loaded = states.get(environment);
        if (loaded) return loaded;
      }
      throw new DomainError(503, 'ServiceUnavailableError', `This edge holds no flags of ${environment} yet: it needs a client token for that environment and an answer from its upstream.`, { headers: { 'retry-after': '2' } });
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
    onEvent() {},
    start() {},
    async stop() {},
    held: () => [
      ...[...states.values()].map(({ environment, revision, installedAt, compileMs }) => ({ environment, revision, installedAt, compileMs })),
      // Kept from before a restart and not asked for yet: served on first use.
      ...[...restored.values()].filter((kept) => !states.has(kept.environment)).map(({ environment, revision }) => ({ environment, revision, installedAt: Date.now(), compileMs: 0 })),
    ],
    installs: () => [...installCounts].flatMap(([environment, counts]) =>
      (Object.keys(counts) as InstallKind[]).map((how) => ({ environment, how, count: counts[how] }))),
  };
}
