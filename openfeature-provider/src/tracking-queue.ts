/** What both providers are given: where Bunting is, the token, and how tracked events are batched. */
export type TrackingOptions = {
  /** Bunting's (or its edge's) address, e.g. https://flags.example.com. */
  baseUrl: string;
  /** A client or frontend token. */
  token: string;
  /** The application's name, as its tracked metrics are labelled. */
  appName?: string;
  /** How often tracked events are sent (default 5 s); a batch is sent at once when it holds `batchSize`. */
  flushIntervalMs?: number;
  batchSize?: number;
  /** The flags an event is split by when its details name none (default: the flags this provider evaluated). */
  trackFlags?: readonly string[];
  /** Called with a batch that could not be sent (it is dropped: tracking never blocks or fails the application). */
  onDropped?: (count: number, reason: string) => void;
};

/** An evaluation as both SDKs answer it: enough to count it as Unleash's SDKs would. */
type Answered = { errorCode?: unknown; reason?: string; variant?: string };
type Context = Record<string, unknown>;
/** Evaluations per flag since the last report, as Unleash's SDKs count them: on, off and per variant. */
type Counts = { yes: number; no: number; variants: Record<string, number> };
type TrackedEvent = { name: string; context: Context; value?: number; flags: string[] };

const METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Bunting takes at most this many flags per event, and at most 500 events (and exposures) per post. */
const MAX_FLAGS = 10;
const MAX_BATCH = 500;
/** Users told of per flag before the provider forgets them. */
const MAX_REMEMBERED = 50_000;

/** The flags named in an event's details: `flags` as a list or a comma-separated text. */
function flagsOf(details: Record<string, unknown>): string[] | undefined {
  const named = details.flags;
  if (Array.isArray(named)) return named.filter((flag): flag is string => typeof flag === 'string');
  if (typeof named === 'string')
    return named
      .split(',')
      .map((flag) => flag.trim())
      .filter(Boolean);
  return undefined;
}

/**
 * What a Bunting provider sends besides evaluating: each evaluation counted as an exposure (SDK metrics, per flag and
 * variant), the first answer of a flag to a user as a user's exposure, and `track()` calls, all batched to Bunting.
 * Nothing here blocks or fails the application: a post that fails is dropped and reported.
 */
export class TrackingQueue {
  private readonly options: Required<Omit<TrackingOptions, 'trackFlags' | 'onDropped'>> &
    Pick<TrackingOptions, 'trackFlags' | 'onDropped'>;
  private counts = new Map<string, Counts>();
  private countedSince = new Date();
  private readonly evaluated = new Set<string>();
  private readonly exposedTo = new Set<string>();
  private events: TrackedEvent[] = [];
  private exposures: { context: Context; flags: string[] }[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private sending: Promise<void> = Promise.resolve();

  /** Where evaluation counts go: a client token's as a server SDK's, a frontend token's as a frontend SDK's. */
  private readonly metricsPath: string;

  constructor(options: TrackingOptions, metricsPath: '/api/client/metrics' | '/api/frontend/client/metrics') {
    this.options = { appName: 'openfeature', flushIntervalMs: 5000, batchSize: 100, ...options };
    this.metricsPath = metricsPath;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /**
   * Counts an evaluation as an exposure, as Unleash's SDKs do (what experiments and guardrails divide by): on with its
   * variant, or off. One that failed (an unknown flag, an error) is not counted. Bunting answers off as DISABLED (the
   * flag off) or DEFAULT (no strategy matched), a variant as SPLIT.
   */
  counted(flagKey: string, context: Context, details: Answered): void {
    if (details.errorCode !== undefined) return;
    this.evaluated.add(flagKey);
    const counts = this.counts.get(flagKey) ?? { yes: 0, no: 0, variants: {} };
    this.counts.set(flagKey, counts);
    if (details.reason !== 'DISABLED' && details.reason !== 'DEFAULT') counts.yes += 1;
    else counts.no += 1;
    if (details.reason === 'SPLIT' && details.variant !== undefined) {
      counts.variants[details.variant] = (counts.variants[details.variant] ?? 0) + 1;
    }
    this.exposed(flagKey, context);
  }

  /**
   * The first answer of a flag to a user is sent as an exposure, so experiments that count users count this one in
   * the variant it was given, whether or not it goes on to do anything tracked.
   */
  private exposed(flagKey: string, context: Context): void {
    const user = context.targetingKey ?? context.userId ?? context.sessionId;
    if (typeof user !== 'string' || user.length === 0) return;
    const key = `${flagKey}\u0000${user}`;
    if (this.exposedTo.has(key)) return;
    // Bounded: a long-lived process forgets whom it told, and at worst tells again (Bunting keeps the first day).
    if (this.exposedTo.size >= MAX_REMEMBERED) this.exposedTo.clear();
    this.exposedTo.add(key);
    this.exposures.push({ context: { ...context }, flags: [flagKey] });
    if (this.exposures.length >= this.options.batchSize) void this.flush();
  }

  /** Queues a tracked event; it is sent with the next batch. A name that is no metric name is dropped at once. */
  track(name: string, context: Context, details: Record<string, unknown> = {}): void {
    if (!METRIC_NAME.test(name)) {
      this.options.onDropped?.(1, `${name} is not a metric name`);
      return;
    }
    const flags = (flagsOf(details) ?? this.options.trackFlags ?? [...this.evaluated]).slice(0, MAX_FLAGS);
    if (flags.length === 0) {
      this.options.onDropped?.(1, 'no flag to split the event by');
      return;
    }
    const value = details.value;
    this.events.push({
      name,
      context: { ...context },
      ...(typeof value === 'number' && Number.isFinite(value) ? { value } : {}),
      flags,
    });
    if (this.events.length >= this.options.batchSize) void this.flush();
  }

  /** Sends the evaluations counted since the last report, then what is tracked, one post at a time. */
  flush(): Promise<void> {
    this.sending = this.sending.then(async () => {
      await this.report();
      while (this.events.length > 0 || this.exposures.length > 0) {
        const events = this.events.splice(0, MAX_BATCH);
        const exposures = this.exposures.splice(0, MAX_BATCH);
        const body = { appName: this.options.appName, events, exposures };
        const failed = await this.post('/api/frontend/track', body, 202);
        if (failed) this.options.onDropped?.(events.length, failed);
      }
    });
    return this.sending;
  }

  private async report(): Promise<void> {
    if (this.counts.size === 0) return;
    const toggles = Object.fromEntries(this.counts);
    const start = this.countedSince.toISOString();
    this.counts = new Map();
    this.countedSince = new Date();
    const body = {
      appName: this.options.appName,
      instanceId: 'openfeature',
      bucket: { start, stop: this.countedSince.toISOString(), toggles },
    };
    const failed = await this.post(this.metricsPath, body);
    if (failed) this.options.onDropped?.(0, `evaluation counts ${failed}`);
  }

  /** One post; what went wrong, or undefined. */
  private async post(path: string, body: unknown, expected?: number): Promise<string | undefined> {
    try {
      const response = await fetch(`${this.options.baseUrl.replace(/\/$/, '')}${path}`, {
        method: 'POST',
        headers: { authorization: this.options.token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const ok = expected === undefined ? response.status < 300 : response.status === expected;
      return ok ? undefined : `answered ${response.status}`;
    } catch (error) {
      return (error as Error).message;
    }
  }
}
