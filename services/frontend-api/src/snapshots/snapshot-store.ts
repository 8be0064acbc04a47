import { z } from 'zod';
import { EnvironmentSnapshot, SnapshotView } from '@bunting/contracts';
import { DomainError, askView, type Logger, type Messaging, type Redis } from '@bunting/platform';
import { compileEnvironment, type CompiledEnvironment } from './compiled-environment.ts';
import { flagOf, scopeOf } from './configuration-events.ts';
import { createRevisionHistory, diffNamed, diffSnapshots } from './revision-changes.ts';
import { createChangedFlags, mergeSnapshot } from './snapshot-merge.ts';
import { createStoredCopy, type Stored } from './stored-copy.ts';
import type { InstallKind, SnapshotStore } from './snapshot-source.ts';

export type { InstallKind, SnapshotStore };

/**
 * A new revision. When it patched the one before, the patch rides along (the flags read again, as read) if it is small
 * enough for a NATS message: a replica holding the revision it was made from applies it without reading Redis.
 */
const Notice = z.object({
  environment: z.string(),
  revision: z.number(),
  patch: z.object({ from: z.number(), coveredSeq: z.number(), names: z.array(z.string()), fresh: EnvironmentSnapshot }).optional(),
});
type Notice = z.infer<typeof Notice>;
/** Below NATS's default largest message (1 MiB), with room to spare. */
const NOTICE_PATCH_LIMIT = 256 * 1024;
const ConfigurationEvent = z.object({ type: z.string(), environment: z.string().nullable().optional(), featureName: z.string().nullable().optional() });
/** Up to this many changed flags are read alone; more, and the whole environment is read. */
const PARTIAL_LIMIT = 500;

function unavailable(environment: string) {
  return new DomainError(503, 'ServiceUnavailableError', `The flags of ${environment} are not loaded yet and cannot be fetched right now; try again shortly.`, { headers: { 'retry-after': '2' } });
}

type Deps = { messaging: Messaging; redis: Redis; log: Logger; namespace: string; hostname: string; revisionCheckMs: number };

/**
 * Keeps each environment's snapshot in memory, mirrored in Redis with a revision. Every replica follows the
 * event stream; on a configuration change one replica (holding a Redis lock) asks admin-api for the new
 * snapshot, stores it with a higher revision and announces it on NATS; every replica then reloads it.
 * A snapshot records the stream sequence it covers, so a replica knows whether what Redis holds is recent
 * enough for the changes it has seen.
 */
export function createSnapshotStore(deps: Deps): SnapshotStore {
  const { messaging, redis, log } = deps;
  const key = {
    data: (environment: string) => `${deps.namespace}:snapshot:${environment}`,
    revision: (environment: string) => `${deps.namespace}:snapshot-revision:${environment}`,
    lock: (environment: string) => `${deps.namespace}:snapshot-lock:${environment}`,
  };
  const copies = createStoredCopy({ redis, log, namespace: deps.namespace });
  const noticeSubject = `${deps.namespace}.snapshots.updated`;
  const states = new Map<string, CompiledEnvironment & { coveredSeq: number; installedAt: number; compileMs: number }>();
  const loading = new Map<string, Promise<CompiledEnvironment>>();
  const running = new Map<string, Promise<void>>();
  const dirty = new Set<string>();
  const failingSince = new Map<string, number>();
  const seenForEnvironment = new Map<string, number>();
  let seenForAll = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const subscriptions: { unsubscribe: () => void }[] = [];
  const history = createRevisionHistory();
  const installCounts = new Map<string, Record<InstallKind, number>>();
  const listeners = new Map<string, Set<(compiled: CompiledEnvironment) => void>>();
  const changedFlags = createChangedFlags();
  // Events before start are not known one by one: a snapshot covering less than this is never patched.
  let startedAt = Number.POSITIVE_INFINITY;

  /** A held state as the delta history compares it: each flag through the engine's own index. */
  const comparable = (state: CompiledEnvironment) => ({ snapshot: state.snapshot, featureNamed: (name: string) => state.engine.get(name)?.source });
  const requiredSeq = (environment: string) => Math.max(seenForAll, seenForEnvironment.get(environment) ?? 0);

  /**
   * Serves a revision, built here, patched from a notice or read from the stored copy. A snapshot made here from the
   * one held (not read from the copy) keeps the objects of every flag not read again, and what was compiled for them.
   */
  function install(stored: Stored, how: InstallKind): CompiledEnvironment {
    const existing = states.get(stored.snapshot.environment);
    if (existing && existing.revision >= stored.revision) return existing;
    const started = performance.now();
    const lender = how !== 'copy' && existing !== undefined && existing.revision === stored.changed?.from ? existing : undefined;
    const built = compileEnvironment(stored.snapshot, stored.revision, deps.hostname, lender);
    const compiled = Object.assign(built, { coveredSeq: stored.coveredSeq, installedAt: Date.now(), compileMs: performance.now() - started });
    const environment = stored.snapshot.environment;
    states.set(environment, compiled);
    const counts = installCounts.get(environment) ?? installCounts.set(environment, { built: 0, patch: 0, copy: 0 }).get(environment)!;
    counts[how] += 1;
    changedFlags.forget(new Map([...states].map(([name, state]) => [name, state.coveredSeq])));
    // Comparing the snapshots for the delta protocol waits until the new one is being served: until then a delta
    // SDK asking gets a hydration, which is never wrong.
    setImmediate(() => {
      if (existing) {
        const named = stored.changed?.from === existing.revision ? stored.changed.features : null;
        history.record(environment, named
          ? diffNamed(comparable(existing), comparable(compiled), named, existing.revision, stored.revision)
          : diffSnapshots(existing.snapshot, stored.snapshot, existing.revision, stored.revision));
      }
      for (const listener of listeners.get(environment) ?? []) {
        try {
          listener(compiled);
        } catch (error) {
          log.warn({ err: error, environment }, 'a snapshot listener failed');
        }
      }
    });
    return compiled;
  }

  /**
   * The next revision of an environment: Redis's counter, but never at or below what this replica serves (a Redis
   * restarted without its data starts counting from zero again).
   */
  async function nextRevision(environment: string): Promise<number> {
    const counted = await redis.incr(key.revision(environment));
    const held = states.get(environment)?.revision ?? 0;
    if (counted > held) return counted;
    await redis.eval(
      "if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1]) end return 0",
      1, key.revision(environment), held + 1,
    );
    return held + 1;
  }

  /**
   * The held snapshot with only the flags changed since it read again, when that is enough: no event about more than
   * single flags since, and not too many of them. Undefined means read the whole environment.
   */
  async function patchHeld(environment: string): Promise<{ snapshot: EnvironmentSnapshot; fresh: EnvironmentSnapshot; changed: { from: number; features: string[] } } | undefined> {
    const held = states.get(environment);
    if (!held || held.coveredSeq < startedAt) return undefined;
    const names = changedFlags.since(environment, held.coveredSeq);
    if (!names || names.size > PARTIAL_LIMIT) return undefined;
    const features = [...names];
    const fresh = await askView(messaging, SnapshotView, { environment, features });
    return { snapshot: mergeSnapshot(held.snapshot, fresh, names), fresh, changed: { from: held.revision, features } };
  }

  /** The notice of a patched revision with its patch, or undefined when the patch is too big to send. */
  function patchNotice(stored: Stored, fresh: EnvironmentSnapshot): string | undefined {
    const { changed, revision, coveredSeq } = stored;
    if (!changed) return undefined;
    const notice: Notice = { environment: fresh.environment, revision, patch: { from: changed.from, coveredSeq, names: changed.features, fresh } };
    const text = JSON.stringify(notice);
    return text.length <= NOTICE_PATCH_LIMIT ? text : undefined;
  }

  /** A notice's patch applied to the revision held, when it was made from that one. */
  function applyNotice(notice: Notice): boolean {
    const held = states.get(notice.environment);
    const patch = notice.patch;
    if (!held || !patch || patch.from !== held.revision) return false;
    const snapshot = mergeSnapshot(held.snapshot, patch.fresh, new Set(patch.names));
    install({ revision: notice.revision, coveredSeq: patch.coveredSeq, snapshot, changed: { from: patch.from, features: patch.names } }, 'patch');
    return true;
  }

  /** One replica builds under the lock; the others wait for a stored snapshot that covers what they saw. */
  async function rebuild(environment: string, options: { once?: boolean } = {}): Promise<void> {
    for (let attempt = 0; !stopped; attempt += 1) {
      const needed = requiredSeq(environment);
      const token = `${process.pid}:${Math.random()}`;
      const locked = await redis.set(key.lock(environment), token, 'PX', 10_000, 'NX');
      if (locked === 'OK') {
        try {
          const coveredSeq = requiredSeq(environment);
          const patched = await patchHeld(environment);
          const snapshot = patched?.snapshot ?? await askView(messaging, SnapshotView, { environment });
          const revision = await nextRevision(environment);
          const stored: Stored = { revision, coveredSeq, snapshot, ...(patched ? { changed: patched.changed } : {}) };
          // A patch is served and sent at once, and the whole copy for replicas that start later follows: at 10,000
          // flags encoding and compressing it took 50-500 ms, and reading it back as much on every other replica.
          const notice = patched && patchNotice(stored, patched.fresh);
          if (notice) {
            install(stored, 'built');
            messaging.nc.publish(noticeSubject, notice);
            copies.writeSoon(stored);
          } else {
            await copies.write(stored);
            install(stored, 'built');
            messaging.nc.publish(noticeSubject, JSON.stringify({ environment, revision }));
          }
        } finally {
          await redis.eval(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
            1, key.lock(environment), token,
          );
        }
        return;
      }
      const deadline = Date.now() + 3000;
      while (Date.now() < deadline && !stopped) {
        // The lock holder's notice may have brought it already.
        if ((states.get(environment)?.coveredSeq ?? -1) >= needed) return;
        // Reading the copy costs tens of milliseconds at 10,000 flags: only once it covers what is needed.
        const covered = await copies.covered(environment);
        const stored = covered === null || covered >= needed ? await copies.read(environment) : undefined;
        if (stored && stored.coveredSeq >= needed) {
          install(stored, 'copy');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      if (options.once) throw new Error('no fresh snapshot from the lock holder yet');
      log.warn({ environment, attempt }, 'no fresh snapshot from the lock holder yet; trying to build it here');
    }
  }

  /** Coalesces changes: one rebuild at a time per environment, run again if more changes came meanwhile. */
  function scheduleRebuild(environment: string) {
    if (running.has(environment)) {
      dirty.add(environment);
      return;
    }
    const run = (async () => {
      do {
        dirty.delete(environment);
        try {
          await rebuild(environment);
          failingSince.delete(environment);
        } catch (error) {
          // While admin-api, Redis or NATS is down the snapshot held is served; say so once, then keep trying.
          if (!failingSince.has(environment)) {
            failingSince.set(environment, Date.now());
            log.warn({ reason: (error as Error).message, environment }, 'cannot rebuild a snapshot now; serving the one held and retrying');
          }
          await new Promise((resolve) => setTimeout(resolve, 1000));
          dirty.add(environment);
        }
      } while (dirty.has(environment) && !stopped);
    })().finally(() => running.delete(environment));
    running.set(environment, run);
  }

  /**
   * An environment not held yet: the Redis copy if it covers what this replica has seen, else a fresh build. When no
   * build can be made now (admin-api or Redis unreachable), an older Redis copy is served while a build is retried in
   * the background; with nothing at all, 503 at once.
   */
  async function load(environment: string): Promise<CompiledEnvironment> {
    const stored = await copies.read(environment).catch(() => undefined);
    if (stored && stored.coveredSeq >= requiredSeq(environment)) return install(stored, 'copy');
    try {
      await rebuild(environment, { once: true });
    } catch (error) {
      log.warn({ environment, reason: (error as Error).message }, stored ? 'serving an older snapshot from Redis until one can be built' : 'no snapshot can be loaded now');
    }
    const state = states.get(environment);
    if (state) return state;
    if (!stored) throw unavailable(environment);
    const served = install(stored, 'copy');
    scheduleRebuild(environment);
    return served;
  }

  function onEvent(raw: unknown, seq: number) {
    const parsed = ConfigurationEvent.safeParse(raw);
    if (!parsed.success) return;
    const event = parsed.data;
    const scope = scopeOf(event);
    if (scope.kind === 'none') return;
    const flag = flagOf(event);
    const where = scope.kind === 'environment' ? scope.environment : null;
    if (flag === null) changedFlags.whole(where, seq);
    else changedFlags.flag(where, flag, seq);
    if (scope.kind === 'all') {
      seenForAll = Math.max(seenForAll, seq);
      for (const environment of states.keys()) scheduleRebuild(environment);
    } else {
      seenForEnvironment.set(scope.environment, Math.max(seenForEnvironment.get(scope.environment) ?? 0, seq));
      if (states.has(scope.environment)) scheduleRebuild(scope.environment);
    }
  }

  /** Catches a missed notice: any environment whose stored copy is ahead is reloaded. */
  async function checkRevisions() {
    for (const [environment, state] of states) {
      // A rebuild under way installs what it finds itself.
      if (running.has(environment)) continue;
      const revision = (await copies.revision(environment)) ?? Number(await redis.get(key.revision(environment)));
      if (revision > state.revision) {
        const stored = await copies.read(environment);
        if (stored) install(stored, 'copy');
      }
    }
  }

  return {
    current: (environment) => states.get(environment),
    held: () => [...states.values()].map(({ environment, revision, installedAt, compileMs }) => ({ environment, revision, installedAt, compileMs })),
    installs: () => [...installCounts].flatMap(([environment, counts]) =>
      (Object.keys(counts) as InstallKind[]).map((how) => ({ environment, how, count: counts[how] }))),
    changesSince(environment, revision) {
      const state = states.get(environment);
      return state ? history.since(environment, revision, state.revision) : null;
    },
    subscribe(environment, listener) {
      const set = listeners.get(environment) ?? new Set();
      set.add(listener);
      listeners.set(environment, set);
      return () => set.delete(listener);
    },
    ensure(environment) {
      const state = states.get(environment);
      if (state) return Promise.resolve(state);
      let pending = loading.get(environment);
      if (!pending) {
        pending = load(environment).finally(() => loading.delete(environment));
        loading.set(environment, pending);
      }
      return pending;
    },
    onEvent,
    start(lastSequence) {
      // Anything already in the stream must be covered by a snapshot this replica uses.
      seenForAll = lastSequence;
      startedAt = lastSequence;
      subscriptions.push(messaging.nc.subscribe(noticeSubject, {
        callback: (error, message) => {
          if (error) return;
          const notice = Notice.safeParse(message.json());
          if (!notice.success) return;
          const state = states.get(notice.data.environment);
          if (!state || state.revision >= notice.data.revision || applyNotice(notice.data)) return;
          // Not the revision the patch was made from: the copy, once it is stored (a patched revision's comes a moment
          // later, and the wait for a rebuild or the periodic check reads it then).
          void (async () => {
            if (((await copies.revision(notice.data.environment)) ?? notice.data.revision) < notice.data.revision) return;
            const stored = await copies.read(notice.data.environment);
            if (stored) install(stored, 'copy');
          })().catch(() => undefined);
        },
      }));
      timer = setInterval(() => void checkRevisions().catch(() => undefined), deps.revisionCheckMs);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      for (const subscription of subscriptions) subscription.unsubscribe();
      await Promise.allSettled([...running.values()]);
      await copies.flush();
    },
  };
}
