import { createHash } from 'node:crypto';
import { ClientFeatures, DeltaAnswer } from '@bunting/contracts';
import type { Logger } from '@bunting/platform';
import type { EdgeConfig } from './edge-config.ts';
import { applyDelta, createSseParser, featureSetOf, flagNamesOf, type FeatureSet } from '../snapshots/feature-set.ts';
import { UpstreamError, type Upstream } from './upstream-http.ts';

/** How a feed follows its upstream, best first. */
export const FEED_MODES = ['streaming', 'delta', 'polling'] as const;
export type FeedMode = (typeof FEED_MODES)[number];

/** The upstream does not offer a mode (404, or not a stream): the feed uses the next one and tries again later. */
class Unsupported extends Error {}
/** The upstream's stream answered but was not usable (not its shape, cut mid-message). */
class BadStream extends UpstreamError {}
/** The upstream refused the token (401/403): the feed ends. */
export class Refused extends Error {}

export type Feed = {
  mode: () => FeedMode;
  set: () => FeatureSet | undefined;
  /** Resolves once the feed holds a set (from the upstream); never rejects. */
  loaded: Promise<void>;
  stop: () => void;
};

/** Where a feed is in its upstream's changes: what it sends to be told only of newer ones. */
export type FeedPosition = { lastEventId?: string; deltaEtag?: string; featuresEtag?: string };

type UpstreamAnswerKind = 'everything' | 'changes' | 'unchanged';

type FeedDeps = {
  upstream: Upstream;
  token: string;
  log: Logger;
  config: Pick<EdgeConfig, 'pollMs' | 'probeMs'>;
  /**
   * A set newer than the one before: the whole scope as the upstream now has it, and the flags it changed when a delta
   * named them (absent after a whole answer or a hydration). It may give back the same flags as objects it held
   * before (keepUnchanged): the feed then holds that set, and applies its next delta to it.
   */
  onSet: (set: FeatureSet, changed?: readonly string[]) => FeatureSet | void;
  onRefused: () => void;
  /**
   * Where the scope's feed was before a restart, with its flags then, read only if the upstream's first answer builds
   * on them (a stream resumed, a 304): a restarted edge is sent what changed since, not every flag again.
   */
  resume?: { position: FeedPosition; read: () => Promise<FeatureSet | undefined> };
  /** Each answer taken: every flag, the changes since the position sent, or nothing new. */
  onAnswer?: (answer: UpstreamAnswerKind) => void;
  /** The set the feed holds now and where it is, after each answer that changed the set (for `resume`). */
  onPosition?: (position: FeedPosition, set: FeatureSet) => void;
};

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError(`the upstream's ${what} is not JSON`);
  }
}

function checkStatus(status: number, what: string) {
  if (status === 401 || status === 403) throw new Refused(`the upstream refused the token (${status}) for ${what}`);
  if (status === 404 || status === 405 || status === 501)
    throw new Unsupported(`the upstream does not offer ${what} (${status})`);
  if (status >= 300 && status !== 304) throw new UpstreamError(`the upstream answered ${status} to ${what}`, status);
}

/**
 * Follows one scope (a client token's environment and projects) with the best the upstream offers: its stream of
 * changes, resumed with Last-Event-ID; else the delta endpoint; else polling the features with If-None-Match. A mode
 * the upstream lacks is tried again every probe interval; any failure keeps the set held and retries with back-off.
 */
export function createFeed(deps: FeedDeps): Feed {
  const { upstream, token, log, config } = deps;
  let set: FeatureSet | undefined;
  let mode: FeedMode = 'streaming';
  const unsupportedUntil = new Map<FeedMode, number>();
  let stopped = false;
  const abort = new AbortController();
  let markLoaded!: () => void;
  const loaded = new Promise<void>((resolve) => {
    markLoaded = resolve;
  });
  let { featuresEtag, deltaEtag, lastEventId } = deps.resume?.position ?? {};
  /** The flags of before a restart, until the upstream's first answer: read if it builds on them, else dropped. */
  let resumable = deps.resume?.read;
  /** The digest of the features answer last taken: an upstream that ignores If-None-Match costs a hash, not a parse. */
  let featuresDigest: string | undefined;
  let failures = 0;
  /** Streams in a row that answered but broke: past a few, the upstream is polled until the next probe. */
  let badStreams = 0;
  let failingSince: number | undefined;

  /** Whether the set held was read from before a restart and not yet handed on. */
  let resumed = false;
  let unsaved = false;
  const take = (next: FeatureSet, changed?: readonly string[]) => {
    // Taken from another answer (a delta, a stream): a features answer like the last one polled may differ now, and
    // so may the positions of the other ways (the caller notes its own after this).
    featuresDigest = undefined;
    featuresEtag = deltaEtag = lastEventId = undefined;
    markLoaded();
    // The set read from before a restart, handed on as it was, is saved already.
    unsaved = !(resumed && next === set);
    // Read from before a restart, the set was never handed on: it goes whole, compared with whatever is served.
    set = deps.onSet(next, resumed ? undefined : changed) ?? next;
    resumed = false;
  };
  /** Called once an answer's position is noted. */
  const noteTaken = () => {
    if (!unsaved || !set) return;
    unsaved = false;
    deps.onPosition?.({ lastEventId, deltaEtag, featuresEtag }, set);
  };
  /** Whether the feed holds a set, or one from before a restart it may read: what it asks the upstream depends on it. */
  const holds = () => set !== undefined || resumable !== undefined;
  /**
   * The set an answer builds on: the one held, or the one from before a restart, read now. Undefined when there is
   * none (or it cannot be read): the positions are then forgotten, so the next question asks for everything.
   */
  async function heldSet(): Promise<FeatureSet | undefined> {
    const read = resumable;
    resumable = undefined;
    if (set || !read) return set;
    set = await read();
    resumed = set !== undefined;
    if (!set) featuresEtag = deltaEtag = lastEventId = undefined;
    return set;
  }

  // The listener goes with the pause: a feed pauses every poll for as long as the edge runs.
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        abort.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      abort.signal.addEventListener('abort', done, { once: true });
    });

  async function poll() {
    const answer = await upstream.request('GET', 'api/client/features', {
      token,
      headers: featuresEtag && holds() ? { 'if-none-match': featuresEtag } : {},
    });
    checkStatus(answer.status, 'the client features');
    if (answer.status === 304) return takeUnchanged();
    resumable = undefined;
    const digest = createHash('sha256').update(answer.text).digest('base64');
    if (set && digest === featuresDigest) return deps.onAnswer?.('unchanged');
    const payload = ClientFeatures.safeParse(parseJson(answer.text, 'features answer'));
    if (!payload.success)
      throw new UpstreamError(
        `the upstream's features answer is not Unleash's shape: ${payload.error.issues[0]?.message ?? ''}`,
      );
    take(featureSetOf(payload.data));
    featuresEtag = answer.headers.get('etag') ?? undefined;
    featuresDigest = digest;
    noteTaken();
    deps.onAnswer?.('everything');
  }

  /** A 304: the set held is current; one read from before a restart is handed on now. */
  async function takeUnchanged() {
    if (resumable === undefined) return deps.onAnswer?.('unchanged');
    const held = await heldSet();
    if (!held) throw new UpstreamError('the flags persisted before the restart cannot be read; asking for all of them');
    // The upstream confirmed the position the set was saved with.
    const position = { featuresEtag, deltaEtag, lastEventId };
    if (resumed) take(held);
    ({ featuresEtag, deltaEtag, lastEventId } = position);
    deps.onAnswer?.('unchanged');
  }

  async function pollDelta() {
    const answer = await upstream.request('GET', 'api/client/delta', {
      token,
      headers: deltaEtag && holds() ? { 'if-none-match': deltaEtag } : {},
    });
    checkStatus(answer.status, 'the delta endpoint');
    if (answer.status === 304) return takeUnchanged();
    if (!(await takeDelta(answer.text, 'delta answer'))) {
      // Changes to a set not held: ask again for everything.
      deltaEtag = undefined;
      throw new UpstreamError('the upstream sent changes without a hydration');
    }
    deltaEtag = answer.headers.get('etag') ?? undefined;
    noteTaken();
  }

  /**
   * A delta answer (from the delta endpoint or a stream message) applied to the set held and taken when it changed
   * anything; false when its changes need a set that is not held (no hydration yet).
   */
  async function takeDelta(text: string, what: string): Promise<boolean> {
    const delta = DeltaAnswer.safeParse(parseJson(text, what));
    if (!delta.success) throw new UpstreamError(`the upstream's ${what} is not Unleash's shape`);
    // A stream resumed with Last-Event-ID opens with the changes since (none, often), not a hydration.
    const { events } = delta.data;
    const rebuilds = events[0]?.type === 'hydration';
    if (rebuilds) resumable = undefined;
    const held = rebuilds ? set : await heldSet();
    const next = events.length > 0 ? applyDelta(held, events) : held;
    if (!next) return false;
    const everything = events.some((event) => event.type === 'hydration');
    // A hydration may change any flag: the set is then taken whole.
    if (events.length > 0 || resumed) take(next, held && !everything ? flagNamesOf(events) : undefined);
    deps.onAnswer?.(everything ? 'everything' : events.length > 0 ? 'changes' : 'unchanged');
    return true;
  }

  /** Reads the stream until it ends (resolves) or breaks (throws). */
  async function stream() {
    const response = await upstream.open('api/client/streaming', {
      token,
      headers: lastEventId && holds() ? { 'last-event-id': lastEventId } : {},
      signal: abort.signal,
    });
    if (response.status !== 200) await response.body?.cancel().catch(() => undefined);
    checkStatus(response.status, 'streaming');
    if (
      response.status !== 200 ||
      !response.body ||
      !(response.headers.get('content-type') ?? '').includes('text/event-stream')
    ) {
      await response.body?.cancel().catch(() => undefined);
      throw new Unsupported('the upstream does not offer streaming (no event stream)');
    }
    const parse = createSseParser();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        upstream.touch();
        for (const event of parse(decoder.decode(chunk, { stream: true }))) {
          if (event.event === 'fetch-mode' && event.data.trim() === 'polling')
            throw new Unsupported('the upstream asks SDKs to poll');
          if (event.event !== 'unleash-connected' && event.event !== 'unleash-updated') continue;
          // Anything thrown here is the stream's fault (the catch below makes it a BadStream).
          if (!(await takeDelta(event.data, 'stream message'))) {
            lastEventId = undefined;
            throw new BadStream('the upstream streamed changes without a hydration');
          }
          if (event.id !== undefined) lastEventId = event.id;
          noteTaken();
          badStreams = 0;
        }
      }
    } catch (error) {
      if (stopped) return;
      // Whatever went wrong once the stream was open is the stream's fault: the upstream did answer.
      if (error instanceof BadStream || error instanceof Unsupported) throw error;
      throw new BadStream(
        error instanceof UpstreamError ? error.message : `the upstream's stream broke off: ${(error as Error).message}`,
      );
    }
  }

  function chooseMode(): FeedMode {
    const now = Date.now();
    return FEED_MODES.find((candidate) => candidate === 'polling' || (unsupportedUntil.get(candidate) ?? 0) <= now)!;
  }

  async function run() {
    while (!stopped) {
      const chosen = chooseMode();
      if (chosen !== mode) log.info({ from: mode, to: chosen }, 'the edge follows its upstream another way');
      mode = chosen;
      try {
        if (mode === 'streaming') {
          await stream();
          // The stream ended (the upstream restarted, a proxy closed it): reconnect after a moment, resuming.
          await pause(Math.min(config.pollMs, 1000));
        } else {
          await (mode === 'delta' ? pollDelta() : poll());
          await pause(config.pollMs);
        }
        if (failingSince !== undefined) log.info({ mode }, 'the upstream answers again');
        failures = 0;
        failingSince = undefined;
      } catch (error) {
        if (stopped) return;
        if (error instanceof Unsupported) {
          unsupportedUntil.set(mode, Date.now() + config.probeMs);
          continue;
        }
        if (error instanceof Refused) {
          log.warn({ reason: error.message }, 'the upstream refused a token the edge followed; it is no longer served');
          deps.onRefused();
          return;
        }
        failures += 1;
        if (failingSince === undefined) {
          failingSince = Date.now();
          log.warn(
            { mode, reason: (error as Error).message },
            'cannot follow the upstream now; serving the flags held and retrying',
          );
        }
        // An upstream that streams badly may still answer polls; one that cannot be reached is waited for as it is.
        if (error instanceof BadStream && (badStreams += 1) >= 3) {
          badStreams = 0;
          unsupportedUntil.set('streaming', Date.now() + config.probeMs);
        }
        await pause(Math.min(config.pollMs, 250 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  void run();
  return {
    mode: () => mode,
    set: () => set,
    loaded,
    stop() {
      stopped = true;
      abort.abort();
    },
  };
}
