import { OFREPProvider } from '@openfeature/ofrep-provider';
import type {
  EvaluationContext,
  JsonValue,
  Provider,
  ResolutionDetails,
  TrackingEventDetails,
} from '@openfeature/server-sdk';
import { TrackingQueue, type TrackingOptions } from './tracking-queue.ts';

export type BuntingProviderOptions = TrackingOptions & {
  /**
   * Which kind `token` is: a client token's evaluations are reported as a server SDK's metrics, a frontend token's
   * as a frontend SDK's (default client).
   */
  tokenKind?: 'client' | 'frontend';
};

/**
 * An OpenFeature server provider for Bunting: flags are evaluated through OFREP (the OpenFeature project's own
 * provider) and counted as Unleash's SDKs count them (the exposures), and `track` calls are batched to Bunting's
 * tracking endpoint, which joins each with what the named flags answer that user and counts it per variant, so
 * experiments and guardrails can read it.
 */
export class BuntingProvider implements Provider {
  readonly runsOn = 'server';
  readonly metadata = { name: 'Bunting' } as const;
  private readonly ofrep: OFREPProvider;
  private readonly queue: TrackingQueue;

  constructor(options: BuntingProviderOptions) {
    this.ofrep = new OFREPProvider({ baseUrl: options.baseUrl, headers: [['Authorization', options.token]] });
    const path = options.tokenKind === 'frontend' ? '/api/frontend/client/metrics' : '/api/client/metrics';
    this.queue = new TrackingQueue(options, path);
  }

  async initialize(): Promise<void> {
    this.queue.start();
  }

  async onClose(): Promise<void> {
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
  ): Promise<ResolutionDetails<T>> {
    return this.counted(flagKey, context, this.ofrep.resolveObjectEvaluation(flagKey, defaultValue, context));
  }

  private async counted<T>(
    flagKey: string,
    context: EvaluationContext,
    resolving: Promise<ResolutionDetails<T>>,
  ): Promise<ResolutionDetails<T>> {
    const details = await resolving;
    this.queue.counted(flagKey, context, details);
    return details;
  }

  track(trackingEventName: string, context: EvaluationContext, details: TrackingEventDetails = {}): void {
    this.queue.track(trackingEventName, context, details);
  }
}
