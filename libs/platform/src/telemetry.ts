import {
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { Env } from './config.ts';

export { SpanKind };
export type { Span, Context };

const tracer = () => trace.getTracer('bunting');

/** Whether a tracer provider is registered; without one, request spans are skipped (they cost ~10 % on the SDK edge). */
export function tracingActive(): boolean {
  const provider = trace.getTracerProvider() as { getDelegate?: () => object };
  const delegate = provider.getDelegate?.() ?? provider;
  return delegate.constructor.name !== 'NoopTracerProvider';
}

/**
 * Starts the OpenTelemetry SDK when the standard OTEL_* variables ask for an exporter; otherwise tracing
 * stays off and every span below is a no-op. Returns the function that flushes and stops it.
 */
export async function startTelemetry(serviceName: string, env: Env = process.env): Promise<() => Promise<void>> {
  const exporter = env.OTEL_TRACES_EXPORTER;
  const wanted = (exporter !== undefined && exporter !== 'none') || env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined;
  if (!wanted || env.OTEL_SDK_DISABLED === 'true') return async () => undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: env.OTEL_SERVICE_NAME ?? serviceName, instrumentations: [] });
  sdk.start();
  return () => sdk.shutdown();
}

/** The active trace context as W3C headers, to carry across the outbox and NATS. */
export function traceCarrier(active: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  return carrier;
}

export function contextFromCarrier(carrier: Record<string, string> | undefined | null): Context {
  return propagation.extract(context.active(), carrier ?? {});
}

/** Runs `work` inside a span, ending it with the outcome. */
export async function withSpan<T>(
  name: string,
  options: { kind?: SpanKind; parent?: Context; attributes?: Attributes },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

export function startSpan(name: string, kind: SpanKind, parent: Context, attributes?: Attributes): Span {
  return tracer().startSpan(name, { kind, attributes }, parent);
}

export function contextWithSpan(parent: Context, span: Span): Context {
  return trace.setSpan(parent, span);
}

export function runInContext<T>(active: Context, work: () => T): T {
  return context.with(active, work);
}

export function markSpanFailed(span: Span): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
}
