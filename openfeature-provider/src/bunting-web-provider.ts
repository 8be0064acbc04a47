import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
import type {
  EvaluationContext,
  JsonValue,
  Provider,
  ResolutionDetails,
  TrackingEventDetails,
} from '@openfeature/web-sdk';
import { TrackingQueue, type TrackingOptions } from './tracking-queue.ts';

export type BuntingWebProviderOptions = TrackingOptions & {
  /** How often the flags are asked for again (the OFREP web provider's polling, default 30 s). */
  pollIntervalMs?: number;
};

/**
 * An OpenFeature web provider for Bunting, for browsers with a frontend token: flags come from OFREP's bulk evaluation
 * (the OpenFeature project's web provider: one request per context, then polling), each evaluation is counted as
 * Unleash's frontend SDKs count them, the first answer of a flag to a user is sent as the user's exposure, and
 * `track()` calls are batched to Bunting's tracking endpoint.
 */
export class BuntingWebProvider implements Provider {
  readonly runsOn = 'client';
  readonly metadata = { name: 'Bunting (web)' } as const;
  private readonly ofrep: OFREPWebProvider;
  private readonly queue: TrackingQueue;

  constructor(options: BuntingWebProviderOptions) {
    this.ofrep = new OFREPWebProvider({
      baseUrl: options.baseUrl,
      headers: [['Authorization', options.token]],
      ...(options.pollIntervalMs !== undefined ? { pollInterval: options.pollIntervalMs } : {}),
    });
    this.queue = new TrackingQueue(options, '/api/frontend/client/metrics');
  }

  /** The OFREP provider's events (ready, configuration changed, stale), which the SDK listens to. */
  get events() {
    return this.ofrep.events;
  }

  async initialize(context?: EvaluationContext): Promise<void> {
    await this.ofrep.initialize(context);
    this.queue.start();
  }

  onContextChange(oldContext: EvaluationContext, newContext: EvaluationContext): Promise<void> {
    return this.ofrep.onContextChange(oldContext, newContext);
  }

  async onClose(): Promise<void> {
    await this.ofrep.onClose?.();
    await this.queue.stop();
  }

  /** Sends what is queued now (it is sent every `flushIntervalMs` and on close anyway). */
  flush(): Promise<void> {
    return this.queue.flush();
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
  ): ResolutionDetails<T> {
    return this.counted(flagKey, context, this.ofrep.resolveObjectEvaluation(flagKey, defaultValue, context));
  }

  private counted<T>(flagKey: string, context: EvaluationContext, details: ResolutionDetails<T>): ResolutionDetails<T> {
    this.queue.counted(flagKey, context, details);
    return details;
  }

  track(trackingEventName: string, context: EvaluationContext, details: TrackingEventDetails = {}): void {
    this.queue.track(trackingEventName, context, details);
  }
}
