import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import { z } from 'zod';
import { EnvironmentSnapshot } from '@bunting/contracts';
import type { Logger, Redis } from '@bunting/platform';

/** A stored snapshot; `changed` names the flags it changed from the revision before, when it was made by reading only them. */
export const Stored = z.object({
  revision: z.number(),
  coveredSeq: z.number(),
  snapshot: EnvironmentSnapshot,
  changed: z.object({ from: z.number(), features: z.array(z.string()) }).optional(),
});
export type Stored = z.infer<typeof Stored>;
type Feature = EnvironmentSnapshot['features'][number];

/**
 * Snapshots stored in Redis are written on every change and read once per replica: fast compression wins, done off the
 * event loop (in libuv's pool) so answers keep flowing meanwhile.
 */
const STORED_GZIP = { level: 1 };
const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);
/** How long a patched revision's copy waits for later ones, so a burst of changes writes it once. */
const SOON_MS = 200;
// Writes the copy unless a newer revision's is there already (copies written later may be older).
const WRITE_NEWER = `if tonumber(redis.call('get', KEYS[3]) or '0') >= tonumber(ARGV[2]) then return 0 end
redis.call('set', KEYS[1], ARGV[1]) redis.call('set', KEYS[2], ARGV[3]) redis.call('set', KEYS[3], ARGV[2]) return 1`;

/**
 * A stored snapshot's JSON (what JSON.stringify gives), keeping each flag's JSON while the flag is the same object: a
 * patched snapshot keeps the objects of the flags not read again, so after a change to one of 10,000 flags one is
 * encoded, not 2.7 MB (12-140 ms on this VM, on the event loop). Snapshots are never changed in place.
 */
export function createCopyEncoder(): (stored: Stored) => string {
  const featureJson = new Map<string, Map<string, { feature: Feature; json: string }>>();
  return (stored) => {
    const { snapshot, ...rest } = stored;
    let kept = featureJson.get(snapshot.environment);
    // Names gone from the environment are dropped when the cache has grown to twice its flags.
    if (!kept || kept.size > 2 * snapshot.features.length + 100) featureJson.set(snapshot.environment, kept = new Map());
    const parts = new Array<string>(snapshot.features.length);
    for (let index = 0; index < snapshot.features.length; index += 1) {
      const feature = snapshot.features[index]!;
      let entry = kept.get(feature.name);
      if (entry?.feature !== feature) kept.set(feature.name, entry = { feature, json: JSON.stringify(feature) });
      parts[index] = entry.json;
    }
    // The snapshot is the last key, so the head ends with its "}}"; the features go in before them.
    const head = JSON.stringify({ ...rest, snapshot: { environment: snapshot.environment, segments: snapshot.segments } });
    return `${head.slice(0, -2)},"features":[${parts.join(',')}]}}`;
  };
}

/**
 * Each environment's whole snapshot as Redis keeps it, for replicas that start (or fall behind) later: the gzipped
 * copy, the stream sequence it covers (a small key, asked before reading the copy) and its revision.
 */
export function createStoredCopy(deps: { redis: Redis; log: Logger; namespace: string }) {
  const { redis, log } = deps;
  const key = {
    data: (environment: string) => `${deps.namespace}:snapshot:${environment}`,
    covered: (environment: string) => `${deps.namespace}:snapshot-covered:${environment}`,
    revision: (environment: string) => `${deps.namespace}:snapshot-stored-revision:${environment}`,
  };
  const soon = new Map<string, Stored>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const encode = createCopyEncoder();

  async function write(stored: Stored): Promise<void> {
    const environment = stored.snapshot.environment;
    const copy = await gzip(encode(stored), STORED_GZIP);
    await redis.eval(WRITE_NEWER, 3, key.data(environment), key.covered(environment), key.revision(environment), copy, stored.revision, stored.coveredSeq);
  }

  function writeSoonNow() {
    timer = undefined;
    const batch = [...soon.values()];
    soon.clear();
    writing = writing.then(async () => {
      for (const stored of batch) {
        await write(stored).catch((error: Error) => log.warn({ environment: stored.snapshot.environment, reason: error.message }, 'cannot store a snapshot copy now; the next change stores one'));
      }
    });
  }

  return {
    /** Writes the copy now (a revision replicas learn of by reading it). */
    write,
    /**
     * Writes the copy shortly (a patched revision, which replicas learn of from its notice): a burst of changes
     * writes the newest only, and the copy's encoding and compression keep out of the way of the change's spread.
     */
    writeSoon(stored: Stored) {
      soon.set(stored.snapshot.environment, stored);
      timer ??= setTimeout(writeSoonNow, SOON_MS);
    },
    /** The copy's revision; null when that is not known (no copy, or one an older version wrote). */
    async revision(environment: string): Promise<number | null> {
      const revision = await redis.get(key.revision(environment));
      return revision === null ? null : Number(revision);
    },
    /** The stream sequence the copy covers; null when that is not known (no copy, or one an older version wrote). */
    async covered(environment: string): Promise<number | null> {
      const covered = await redis.get(key.covered(environment));
      return covered === null ? null : Number(covered);
    },
    async read(environment: string): Promise<Stored | undefined> {
      const raw = await redis.getBuffer(key.data(environment));
      if (!raw) return undefined;
      const parsed = Stored.safeParse(JSON.parse((await gunzip(raw)).toString('utf8')));
      return parsed.success ? parsed.data : undefined;
    },
    /** Writes what is waiting; resolves when every write begun is done. */
    async flush() {
      if (timer) {
        clearTimeout(timer);
        writeSoonNow();
      }
      await writing;
    },
  };
}
