import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { SdkToken, SdkTokenView, SdkTokensView } from '@bunting/contracts';
import { askView, type Logger, type Messaging, type Redis } from '@bunting/platform';

/** How often the set is asked for again, catching a change whose event this replica missed. */
const RECONCILE_MS = 60_000;
/** A revocation seen in the stream outlives any answer that was already on its way. */
const TOMBSTONE_MS = 5 * 60_000;
/** A secret admin-api did not know is not asked about again for this long (garbage tokens cost one question). */
const UNKNOWN_FOR_MS = 10_000;

const Mirror = z.object({ takenAt: z.string(), tokens: z.array(SdkToken) });

/** A token event's data or preData: which token it names (name and creation time together identify one). */
const TokenEventState = z.object({ tokenName: z.string(), createdAt: z.string(), expiresAt: z.string().nullable().optional() }).loose();
const TokenEvent = z.object({ type: z.string(), data: TokenEventState.nullable().optional(), preData: TokenEventState.nullable().optional() });

export type SdkTokens = {
  /** The token a secret belongs to; null when none does; undefined while this replica holds no token set yet. */
  find: (secret: string) => SdkToken | null | undefined;
  /**
   * For a secret `find` does not know: asks admin-api about that one hash (a token made a moment ago, whose event is
   * still on its way), once per secret in a while. Null when admin-api does not know it, or cannot be asked (no
   * token can be made while it is unreachable, so a secret the set does not hold is then no token).
   */
  lookup: (secret: string) => Promise<SdkToken | null>;
  /** Applies a token event from the stream at once (revocation, expiry), then asks admin-api for the whole set. */
  onEvent: (event: unknown) => void;
  loaded: () => boolean;
  start: () => Promise<void>;
  stop: () => void;
};

const keyOf = (token: { name?: string; tokenName?: string; createdAt: string }) => `${token.name ?? token.tokenName}\u0000${Date.parse(token.createdAt)}`;
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * The SDK edge's copy of the API tokens, as hashes with their scope: an SDK request is verified here, in memory,
 * whatever else is down. Asked of admin-api at start, after every token event and every minute; mirrored in Redis
 * so a replica starting while admin-api is unreachable still knows the tokens. A revocation is applied from the
 * event itself, so it takes effect even when admin-api cannot answer at that moment.
 */
export function createSdkTokens(deps: { messaging: Messaging; redis: Redis; log: Logger; namespace: string }): SdkTokens {
  const { messaging, redis, log } = deps;
  const mirrorKey = `${deps.namespace}:sdk-tokens`;
  let byHash: Map<string, SdkToken> | undefined;
  // Secrets already hashed: SDKs send the same few tokens on every request.
  const bySecret = new Map<string, SdkToken | null>();
  const tombstones = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;
  let again = false;
  let unavailableSince: number | undefined;
  const unknownUntil = new Map<string, number>();
  const lookups = new Map<string, Promise<SdkToken | null>>();

  function install(tokens: readonly SdkToken[], askedAt: number) {
    const now = Date.now();
    for (const [key, at] of tombstones) if (now - at > TOMBSTONE_MS) tombstones.delete(key);
    // An answer computed before a revocation arrived must not bring the token back.
    const kept = tokens.filter((token) => !((tombstones.get(keyOf(token)) ?? 0) >= askedAt));
    byHash = new Map(kept.map((token) => [token.hash, token]));
    bySecret.clear();
  }

  async function readMirror() {
    try {
      const raw = await redis.getBuffer(mirrorKey);
      const parsed = raw ? Mirror.safeParse(JSON.parse(gunzipSync(raw).toString('utf8'))) : undefined;
      return parsed?.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  // The last set admin-api gave, as mirrored: written again when Redis comes back (a restarted Redis is empty, and
  // the next answer may be a minute away).
  let mirrored: string | undefined;
  const writeMirror = async () => {
    if (mirrored !== undefined) await redis.set(mirrorKey, gzipSync(mirrored)).catch(() => undefined);
  };
  const onRedisReady = () => void writeMirror();
  redis.on('ready', onRedisReady);

  async function askOnce() {
    const askedAt = Date.now();
    const tokens = await askView(messaging, SdkTokensView, {});
    install(tokens, askedAt);
    if (unavailableSince !== undefined) log.info('the SDK token set is current again');
    unavailableSince = undefined;
    mirrored = JSON.stringify({ takenAt: new Date(askedAt).toISOString(), tokens });
    await writeMirror();
  }

  /** One refresh at a time; a request for one while another runs runs once more after it. */
  function refresh(): Promise<void> {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          await askOnce();
        } catch (error) {
          if (unavailableSince === undefined) {
            unavailableSince = Date.now();
            log.warn({ reason: (error as Error).message }, 'admin-api cannot give the SDK token set; verifying with the copy held');
          }
        }
      } while (again);
    })().finally(() => { refreshing = undefined; });
    return refreshing;
  }

  function applyLocally(event: z.infer<typeof TokenEvent>) {
    if (!byHash) return;
    if (event.type === 'api-token-deleted' && event.preData) {
      const key = keyOf(event.preData);
      tombstones.set(key, Date.now());
      for (const [hash, token] of byHash) if (keyOf(token) === key) byHash.delete(hash);
      bySecret.clear();
    }
    if (event.type === 'api-token-updated' && event.data) {
      const key = keyOf(event.data);
      for (const token of byHash.values()) if (keyOf(token) === key) token.expiresAt = event.data.expiresAt ?? null;
      bySecret.clear();
    }
  }

  function find(secret: string): SdkToken | null | undefined {
    if (!byHash) return undefined;
    let token = bySecret.get(secret);
    if (token === undefined) {
      token = byHash.get(hashSecret(secret)) ?? null;
      if (bySecret.size > 10_000) bySecret.clear();
      bySecret.set(secret, token);
    }
    if (token && token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now()) return null;
    return token;
  }

  return {
    find,
    lookup(secret) {
      const hash = hashSecret(secret);
      const now = Date.now();
      if ((unknownUntil.get(hash) ?? 0) > now) return Promise.resolve(null);
      let pending = lookups.get(hash);
      if (!pending) {
        const askedAt = now;
        pending = askView(messaging, SdkTokenView, { hash }).then((token) => {
          if (token && byHash && !((tombstones.get(keyOf(token)) ?? 0) >= askedAt)) {
            byHash.set(token.hash, token);
            bySecret.delete(secret);
          }
          if (!token) {
            if (unknownUntil.size > 10_000) unknownUntil.clear();
            unknownUntil.set(hash, Date.now() + UNKNOWN_FOR_MS);
          }
          return token && find(secret) ? token : null;
        }, () => null).finally(() => lookups.delete(hash));
        lookups.set(hash, pending);
      }
      return pending;
    },
    onEvent(raw) {
      const event = TokenEvent.safeParse(raw);
      if (!event.success || !event.data.type.startsWith('api-token-')) return;
      applyLocally(event.data);
      void refresh();
    },
    loaded: () => byHash !== undefined,
    async start() {
      await refresh();
      if (!byHash) {
        const mirror = await readMirror();
        if (mirror) {
          install(mirror.tokens, Date.parse(mirror.takenAt));
          log.warn({ takenAt: mirror.takenAt }, 'serving with the SDK token set mirrored in Redis until admin-api answers');
        }
      }
      // Without a set yet, ask every second; with one, once a minute to catch a missed event.
      const schedule = () => {
        timer = setTimeout(() => void refresh().finally(schedule), byHash ? RECONCILE_MS : 1000);
        timer.unref();
      };
      schedule();
    },
    stop() {
      if (timer) clearTimeout(timer);
      redis.off('ready', onRedisReady);
    },
  };
}
