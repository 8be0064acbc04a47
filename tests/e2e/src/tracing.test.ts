import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

const exporter = new InMemorySpanExporter();
let stack: TestStack;

beforeAll(async () => {
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.dispose();
  trace.disable();
});

describe('one trace follows a change from HTTP through the outbox and NATS into the event log', () => {
  it('connects the request span, the publish span and the consumer span', async () => {
    const reply = await stack.admin.post('/api/admin/projects/default/features', { name: 'traced-flag' });
    expect(reply.status).toBe(201);

    const spans = await eventually(async () => {
      const all = exporter.getFinishedSpans();
      const request = all.find((span) => span.name === 'POST /api/admin/projects/:projectId/features');
      const publish = all.find((span) => span.name.endsWith('.events.feature-created'));
      const consume = all.find(
        (span) =>
          span.name.endsWith('process') &&
          span.attributes['messaging.destination.name'] === publish?.name.replace('publish ', ''),
      );
      return request && publish && consume && { request, publish, consume };
    });
    const traceId = spans.request.spanContext().traceId;
    expect(spans.publish.spanContext().traceId).toBe(traceId);
    expect(spans.consume.spanContext().traceId).toBe(traceId);
    expect(spans.publish.parentSpanContext?.spanId).toBe(spans.request.spanContext().spanId);
    expect(spans.consume.parentSpanContext?.spanId).toBe(spans.publish.spanContext().spanId);
  });
});
