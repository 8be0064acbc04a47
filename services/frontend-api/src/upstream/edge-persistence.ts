import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import { z } from 'zod';
import { EdgeTokenValidation, EnvironmentSnapshot } from '@bunting/contracts';
import { closeRedis, connectRedis, type Logger, type Redis } from '@bunting/platform';
import type { KnownToken } from './edge-tokens.ts';
import { featureSetOf, mergeSets, type FeatureSet } from '../snapshots/feature-set.ts';
import type { FeedPosition } from './upstream-feed.ts';

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

const PersistedToken = EdgeTokenValidation.shape.tokens.element.omit({ token: true }).extend({ secret: z.string() });
const PersistedTokens = z.array(PersistedToken);
/** Each environment kept and its revision: read at start, so a restarted edge counts on from where it was. */
const Revisions = z.record(z.string(), z.number());
/** An environment's flags as edges before scopes were kept wrote them: read when it has no scope kept. */
const PersistedEnvironment = z.object({ revision: z.number(), snapshot: EnvironmentSnapshot });
type PersistedEnvironment = z.infer<typeof PersistedEnvironment>;
const FeedPosition = z.object({
  lastEventId: z.string().optional(),
  deltaEtag: z.string().optional(),
  featuresEtag: z.string().optional(),
}) satisfies z.ZodType<FeedPosition>;
/**
 * Each scope kept: its environment and where its feed was in its upstream's changes; small, read at start. Each
 * save's mark is written here and in the scope's file, so a pair that does not match (one of the two writes failed)
 * is not read.
 */
const Scopes = z.array(
  z.tuple([z.string(), z.object({ environment: z.string(), position: FeedPosition, mark: z.string() })]),
);
type ScopeEntry = z.infer<typeof Scopes>[number][1];
/** A scope's flags, with the mark of the save that wrote them. */
const PersistedScope = z.object({
  scope: z.string(),
  mark: z.string(),
  features: EnvironmentSnapshot.shape.features,
  segments: EnvironmentSnapshot.shape.segments,
});

/** An environment kept from before a restart: its revision at once, its flags read when first asked for. */
export type RestoredEnvironment = {
  environment: string;
  revision: number;
  read: () => Promise<PersistedEnvironment | undefined>;
};
/**
 * A scope followed before a restart: where its feed was, and its flags, read once whether the environment is asked
 * for or the upstream builds on them.
 */
export type RestoredScope = { position: FeedPosition; read: () => Promise<FeatureSet | undefined> };
export type Persisted = {
  tokens: KnownToken[];
  environments: RestoredEnvironment[];
  scopes: ReadonlyMap<string, RestoredScope>;
};

/**
 * Where a standalone edge keeps its last known flags and tokens, so it serves them at once after a restart. Flags are
 * kept by scope (what one feed follows), each with where its feed was: an environment is read back as the merge of its
 * scopes, and a feed asks its upstream only for what changed since.
 */
export type EdgePersistence = {
  load: () => Promise<Persisted>;
  saveTokens: (tokens: readonly KnownToken[]) => void;
  /** The revision an environment's scopes, as kept, were installed at. */
  saveRevision: (environment: string, revision: number) => void;
  /** A scope's flags as its feed holds them and where the feed is. */
  saveScope: (scope: string, environment: string, position: FeedPosition, set: FeatureSet) => void;
  /** A scope no longer followed. */
  dropScope: (scope: string) => void;
  /** Writes what is waiting, then stops. */
  close: () => Promise<void>;
};

/** Writes at most every this often per key: a burst of changes is written once, the newest. */
const WRITE_AFTER_MS = 500;

type Backend = {
  read: (key: string) => Promise<Buffer | undefined>;
  write: (key: string, value: Buffer) => Promise<void>;
  remove: (key: string) => Promise<void>;
  close: () => Promise<void>;
};

/** A scope's key names its environment and projects (any number): its file is named by a digest of it. */
const scopeFile = (scope: string) => `scope-${createHash('sha256').update(scope).digest('hex').slice(0, 32)}`;

function persistence(backend: Backend, log: Logger): EdgePersistence {
  /** What to write by key; undefined removes the key. */
  const waiting = new Map<string, (() => Promise<Buffer>) | undefined>();
  let revisions: Record<string, number> = {};
  let scopes = new Map<string, ScopeEntry>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function writeNow() {
    timer = undefined;
    const batch = [...waiting];
    waiting.clear();
    writing = writing.then(async () => {
      for (const [key, encode] of batch) {
        await (encode ? encode().then((value) => backend.write(key, value)) : backend.remove(key)).catch(
          (error: Error) =>
            log.warn({ key, reason: error.message }, 'cannot persist the edge state now; the next change tries again'),
        );
      }
    });
  }
  // A key set again goes to the end: what is written follows the order of the calls (an environment before its revision).
  const later = (key: string, encode: (() => Promise<Buffer>) | undefined) => {
    waiting.delete(key);
    waiting.set(key, encode);
    timer ??= setTimeout(writeNow, WRITE_AFTER_MS);
  };
  const listScopes = () => {
    const listed = JSON.stringify([...scopes]);
    later('scopes', () => gzip(listed));
  };
  const environmentFile = (environment: string) => `environment-${encodeURIComponent(environment)}`;
  /** Environments whose file of before scopes were kept is removed (once a scope of theirs is). */
  const scoped = new Set<string>();
  async function readJson<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined> {
    try {
      const raw = await backend.read(key);
      if (!raw) return undefined;
      const parsed = schema.safeParse(JSON.parse((await gunzip(raw)).toString('utf8')));
      if (!parsed.success) log.warn({ key }, 'a persisted edge state is not readable; ignored');
      return parsed.success ? parsed.data : undefined;
    } catch (error) {
      log.warn({ key, reason: (error as Error).message }, 'cannot read a persisted edge state; ignored');
      return undefined;
    }
  }

  return {
    async load() {
      const tokens = (await readJson('tokens', PersistedTokens)) ?? [];
      revisions = (await readJson('revisions', Revisions)) ?? {};
      scopes = new Map(await readJson('scopes', Scopes));
      // Reading and checking 10,000 flags takes about 130 ms a scope here: done when first asked for, once for the
      // environment's answers and its feed's resume alike.
      const restoredScopes = new Map(
        [...scopes].map(([scope, { environment, position, mark }]) => {
          let reading: Promise<FeatureSet | undefined> | undefined;
          const read = () =>
            (reading ??= readJson(scopeFile(scope), PersistedScope).then((kept) =>
              kept?.scope === scope && kept.mark === mark ? featureSetOf(kept) : undefined,
            ));
          return [scope, { environment, position, read }];
        }),
      );
      const environments = Object.entries(revisions).map(([environment, revision]) => {
        const ofEnvironment = [...restoredScopes.values()].filter((scope) => scope.environment === environment);
        return {
          environment,
          revision,
          read: async (): Promise<PersistedEnvironment | undefined> => {
            if (ofEnvironment.length === 0) {
              const kept = await readJson(environmentFile(environment), PersistedEnvironment);
              return kept?.snapshot.environment === environment ? kept : undefined;
            }
            const sets = (await Promise.all(ofEnvironment.map((scope) => scope.read()))).flatMap((set, index) =>
              set ? [{ set, updatedAt: index }] : [],
            );
            return sets.length > 0 ? { revision, snapshot: mergeSets(environment, sets).snapshot } : undefined;
          },
        };
      });
      return {
        tokens: tokens.map(({ secret, type, environment, projects }) => ({ secret, type, environment, projects })),
        environments,
        scopes: restoredScopes,
      };
    },
    saveTokens(tokens) {
      const copy = tokens.map(({ secret, type, environment, projects }) => ({ secret, type, environment, projects }));
      later('tokens', () => gzip(JSON.stringify(copy)));
    },
    saveRevision(environment, revision) {
      // After the scopes' files (one queue, in order): a revision listed is one whose flags are kept.
      revisions = { ...revisions, [environment]: revision };
      const listed = revisions;
      later('revisions', () => gzip(JSON.stringify(listed)));
    },
    saveScope(scope, environment, position, set) {
      const mark = randomUUID();
      later(scopeFile(scope), () =>
        gzip(
          JSON.stringify({ scope, mark, features: [...set.features.values()], segments: [...set.segments.values()] }),
          { level: 1 },
        ),
      );
      // After the scope's file, as the revisions after the scopes.
      scopes.set(scope, { environment, position: { ...position }, mark });
      listScopes();
      if (!scoped.has(environment)) {
        scoped.add(environment);
        later(environmentFile(environment), undefined);
      }
    },
    dropScope(scope) {
      if (!scopes.delete(scope)) return;
      listScopes();
      later(scopeFile(scope), undefined);
    },
    async close() {
      if (timer) {
        clearTimeout(timer);
        writeNow();
      }
      await writing;
      await backend.close();
    },
  };
}

/** Files in a directory (a volume), written whole and renamed so a crash mid-write leaves the previous file. */
export async function filePersistence(dir: string, log: Logger): Promise<EdgePersistence> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = (key: string) => join(dir, `${key}.json.gz`);
  return persistence(
    {
      read: (key) =>
        readFile(path(key)).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        }),
      async write(key, value) {
        const temporary = `${path(key)}.${process.pid}.tmp`;
        // Tokens are secrets: the files are the edge's alone.
        await writeFile(temporary, value, { mode: 0o600 });
        await rename(temporary, path(key));
      },
      remove: (key) => rm(path(key), { force: true }),
      close: async () => undefined,
    },
    log,
  );
}

/** Keys in a Redis the edges of a region may share; an edge starting while that Redis is down starts without them. */
export async function redisPersistence(url: string, prefix: string, log: Logger): Promise<EdgePersistence> {
  let redis: Redis | undefined;
  try {
    redis = await connectRedis(url, log);
  } catch (error) {
    log.warn(
      { reason: (error as Error).message },
      'the edge cannot reach its Redis now; starting without persisted state',
    );
    redis = undefined;
  }
  return persistence(
    {
      read: async (key) => (await redis?.getBuffer(prefix + key)) ?? undefined,
      write: async (key, value) => void (await redis?.set(prefix + key, value)),
      remove: async (key) => void (await redis?.del(prefix + key)),
      close: async () => {
        if (redis) await closeRedis(redis);
      },
    },
    log,
  );
}
