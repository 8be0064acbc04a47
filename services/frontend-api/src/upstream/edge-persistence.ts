import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import { z } from 'zod';
import { EdgeTokenValidation, EnvironmentSnapshot } from '@bunting/contracts';
import { closeRedis, connectRedis, type Logger, type Redis } from '@bunting/platform';
import type { KnownToken } from './edge-tokens.ts';

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

const PersistedToken = EdgeTokenValidation.shape.tokens.element.omit({ token: true }).extend({ secret: z.string() });
const PersistedTokens = z.array(PersistedToken);
const PersistedEnvironment = z.object({ revision: z.number(), snapshot: EnvironmentSnapshot });
/** Each environment kept and its revision: read at start, so a restarted edge counts on from where it was. */
const Revisions = z.record(z.string(), z.number());
type PersistedEnvironment = z.infer<typeof PersistedEnvironment>;

/** An environment kept from before a restart: its revision at once, its flags read when first asked for. */
export type RestoredEnvironment = {
  environment: string;
  revision: number;
  read: () => Promise<PersistedEnvironment | undefined>;
};
export type Persisted = { tokens: KnownToken[]; environments: RestoredEnvironment[] };

/** Where a standalone edge keeps its last known flags and tokens, so it serves them at once after a restart. */
export type EdgePersistence = {
  load: () => Promise<Persisted>;
  saveTokens: (tokens: readonly KnownToken[]) => void;
  saveEnvironment: (revision: number, snapshot: EnvironmentSnapshot) => void;
  /** Writes what is waiting, then stops. */
  close: () => Promise<void>;
};

/** Writes at most every this often per key: a burst of changes is written once, the newest. */
const WRITE_AFTER_MS = 500;

type Backend = {
  read: (key: string) => Promise<Buffer | undefined>;
  write: (key: string, value: Buffer) => Promise<void>;
  close: () => Promise<void>;
};

function persistence(backend: Backend, log: Logger): EdgePersistence {
  const waiting = new Map<string, () => Promise<Buffer>>();
  let revisions: Record<string, number> = {};
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function writeNow() {
    timer = undefined;
    const batch = [...waiting];
    waiting.clear();
    writing = writing.then(async () => {
      for (const [key, encode] of batch) {
        await backend
          .write(key, await encode())
          .catch((error: Error) =>
            log.warn({ key, reason: error.message }, 'cannot persist the edge state now; the next change tries again'),
          );
      }
    });
  }
  // A key set again goes to the end: what is written follows the order of the calls (an environment before its revision).
  const later = (key: string, encode: () => Promise<Buffer>) => {
    waiting.delete(key);
    waiting.set(key, encode);
    timer ??= setTimeout(writeNow, WRITE_AFTER_MS);
  };
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
      // Reading and checking 10,000 flags takes about 130 ms an environment here: done when one is first asked for.
      const environments = Object.entries(revisions).map(([environment, revision]) => ({
        environment,
        revision,
        read: async () => {
          const kept = await readJson(`environment-${encodeURIComponent(environment)}`, PersistedEnvironment);
          return kept?.snapshot.environment === environment ? kept : undefined;
        },
      }));
      return {
        tokens: tokens.map(({ secret, type, environment, projects }) => ({ secret, type, environment, projects })),
        environments,
      };
    },
    saveTokens(tokens) {
      const copy = tokens.map(({ secret, type, environment, projects }) => ({ secret, type, environment, projects }));
      later('tokens', () => gzip(JSON.stringify(copy)));
    },
    saveEnvironment(revision, snapshot) {
      later(`environment-${encodeURIComponent(snapshot.environment)}`, () =>
        gzip(JSON.stringify({ revision, snapshot }), { level: 1 }),
      );
      // Written after the environment's file (one queue, in order): a revision listed is one whose flags are kept.
      revisions = { ...revisions, [snapshot.environment]: revision };
      const listed = revisions;
      later('revisions', () => gzip(JSON.stringify(listed)));
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
      close: async () => {
        if (redis) await closeRedis(redis);
      },
    },
    log,
  );
}
