import { OFREPProvider } from '@openfeature/ofrep-provider';
import type {
  EvaluationContext,
  JsonValue,
  Provider,
  ResolutionDetails,
  TrackingEventDetails,
} from '@openfeature/server-sdk';

export type BuntingProviderOptions = {
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
  /**
   * Which kind `token` is: a client token's evaluations are reported as a server SDK's metrics, a frontend token's
   * as a frontend SDK's (default client).
   */
  tokenKind?: 'client' | 'frontend';
};

/** Evaluations per flag since the last report, as Unleash's SDKs count them: on, off and per variant. */
type Counts = { yes: number; no: number; variants: Record<string, number> };

type TrackedEvent = { name: string; context: Record<string, unknown>; value?: number; flags: string[] };

const METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Bunting takes at most this many flags per event, and at most 500 events per post. */
const MAX_FLAGS = 10;
const MAX_BATCH = 500;
/** Users told of per flag before the provider forgets them. */
const MAX_REMEMBERED = 50_000;

/** The flags named in an event's details: `flags` as a list or a comma-separated text. */
function flagsOf(details: TrackingEventDetails): string[] | undefined {
  const named = (details as { flags?: unknown }).flags;
  if (Array.isArray(named)) return named.filter((flag): flag is string => typeof flag === 'string');
  if (typeof named === 'string')
    return named
      .split(',')
      .map((flag) => flag.trim())
      .filter(Boolean);
  return undefined;
}

/**
 * An OpenFeature server provider for Bunting: flags are evaluated through OFREP (the OpenFeature project's own
 * provider) and counted as Unleash's SDKs count them (the exposures), and `track` calls are batched to Bunting's
 * tracking endpoint, which joins each with what the named flags
 * answer that user and counts it per variant, so experiments and guardrails can read it.
 */
export class BuntingProvider implements Provider {
  readonly runsOn = 'server';
  readonly metadata = { name: 'Bunting' } as const;
  private readonly ofrep: OFREPProvider;
  private readonly options: Required<Omit<BuntingProviderOptions, 'trackFlags' | 'onDropped'>> &
    Pick<BuntingProviderOptions, 'trackFlags' | 'onDropped'>;
  private counts = new Map<string, Counts>();
  private countedSince = new Date();
  private readonly evaluated = new Set<string>();
  private queue: TrackedEvent[] = [];
  private exposures: { context: Record<string, unknown>; flags: string[] }[] = [];
  private readonly exposedTo = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private sending: Promise<void> = Promise.resolve();

  constructor(options: BuntingProviderOptions) {
    this.options = { appName: 'openfeature', flushIntervalMs: 5000, batchSize: 100, tokenKind: 'client', ...options };
    this.ofrep = new OFREPProvider({
      baseUrl: options.baseUrl,
      headers: [['Authorization', options.token]],
    });
  }

  async initialize(): Promise<void> {
    this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs);
    this.timer.unref?.();
  }

  async onClose(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext) {
    return this.counted(flagKey, context, this.ofrep.resolveBooleanEvaluation(flagKey, defaultValue, context));
  }

  resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext) {
    return this.counted(flagKey, context, this.ofrep.resolveStringEvaluation(flagKey, defaultValue, context));
  }

  resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext) {
    return this.counted(flagKey, context, this.ofrep.resolveNumberEvaluation(flagKey, defaultValue, context));
  }

  resolveObjectEvaluation<T extends JsonValue>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<T>> {
    return this.counted(flagKey, context, this.ofrep.resolveObjectEvaluation(flagKey, defaultValue, context));
  }

  /**
   * Counts an evaluation as an exposure, as Unleash's SDKs do (these are what experiments and guardrails divide by):
   * on with its variant, or off. One that failed (an unknown flag, an error) is not counted.
   */
  private async counted<T>(
    flagKey: string,
    context: EvaluationContext,
    resolving: Promise<ResolutionDetails<T>>,
  ): Promise<ResolutionDetails<T>> {
    const details = await resolving;
    if (details.errorCode !== undefined) return details;
    this.evaluated.add(flagKey);
    this.exposed(flagKey, context);
    const counts = this.counts.get(flagKey) ?? { yes: 0, no: 0, variants: {} };
    this.counts.set(flagKey, counts);
    // Bunting answers off as DISABLED (the flag off) or DEFAULT (no strategy matched), a variant as SPLIT.
    const on = details.reason !== 'DISABLED' && details.reason !== 'DEFAULT';
    if (on) counts.yes += 1;
    else counts.no += 1;
    if (details.reason === 'SPLIT' && details.variant !== undefined) {
      counts.variants[details.variant] = (counts.variants[details.variant] ?? 0) + 1;
    }
    return details;
  }

  /**
   * The first answer of a flag to a user is sent as an exposure, so experiments that count users count this one in
   * the variant it was given, whether or not it goes on to do anything tracked.
   */
  private exposed(flagKey: string, context: EvaluationContext): void {
    const user = context.targetingKey ?? context.userId ?? context.sessionId;
    if (typeof user !== 'string' || user.length === 0) return;
    const key = `${flagKey}\u0000${user}`;
    if (this.exposedTo.has(key)) return;
    // Bounded: a long-lived server forgets whom it told, and at worst tells again (Bunting keeps the first day).
    if (this.exposedTo.size >= MAX_REMEMBERED) this.exposedTo.clear();
    this.exposedTo.add(key);
    this.exposures.push({ context: { ...context }, flags: [flagKey] });
    if (this.exposures.length >= this.options.batchSize) void this.flush();
  }

  /** Queues the event; it is sent with the next batch. A name that is no metric name is dropped at once. */
  track(trackingEventName: string, context: EvaluationContext, details: TrackingEventDetails = {}): void {
    if (!METRIC_NAME.test(trackingEventName)) {
      this.options.onDropped?.(1, `${trackingEventName} is not a metric name`);
      return;
    }
    const flags = (flagsOf(details) ?? this.options.trackFlags ?? [...this.evaluated]).slice(0, MAX_FLAGS);
    if (flags.length === 0) {
      this.options.onDropped?.(1, 'no flag to split the event by');
      return;
    }
    this.queue.push({
      name: trackingEventName,
      context: { ...context },
      ...(typeof details.value === 'number' && Number.isFinite(details.value) ? { value: details.value } : {}),
      flags,
    });
    if (this.queue.length >= this.options.batchSize) void this.flush();
  }

  /** Sends the evaluations counted since the last report, then what is tracked, one post at a time. */
  flush(): Promise<void> {
    this.sending = this.sending.then(async () => {
      await this.report();
      while (this.queue.length > 0 || this.exposures.length > 0) {
        const events = this.queue.splice(0, MAX_BATCH);
        const exposures = this.exposures.splice(0, MAX_BATCH);
        try {
          const response = await fetch(`${this.options.baseUrl.replace(/\/$/, '')}/api/frontend/track`, {
            method: 'POST',
            headers: { authorization: this.options.token, 'content-type': 'application/json' },
            body: JSON.stringify({ appName: this.options.appName, events, exposures }),
          });
          if (response.status !== 202) this.options.onDropped?.(events.length, `answered ${response.status}`);
        } catch (error) {
          this.options.onDropped?.(events.length, (error as Error).message);
        }
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
    const path = this.options.tokenKind === 'frontend' ? '/api/frontend/client/metrics' : '/api/client/metrics';
    try {
      const response = await fetch(`${this.options.baseUrl.replace(/\/$/, '')}${path}`, {
        method: 'POST',
        headers: { authorization: this.options.token, 'content-type': 'application/json' },
        body: JSON.stringify({
          appName: this.options.appName,
          instanceId: 'openfeature',
          bucket: { start, stop: this.countedSince.toISOString(), toggles },
        }),
      });
      if (response.status >= 300) this.options.onDropped?.(0, `evaluation counts answered ${response.status}`);
    } catch (error) {
      this.options.onDropped?.(0, (error as Error).message);
    }
  }
}
