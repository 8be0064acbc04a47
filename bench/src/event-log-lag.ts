import { performance } from 'node:perf_hooks';
import type { TestStack } from '@bunting/test-stack';
import { round, summarize } from './stats.ts';

/**
 * Event-log lag: from the admin call's response to the event being listed by GET /api/admin/events/search,
 * polled every 2 ms. Covers outbox commit, NOTIFY, relay publish, JetStream, the durable consumer and the insert.
 */
export async function measureEventLogLag(stack: TestStack, changes = 100) {
  const samples: number[] = [];
  for (let index = 0; index < changes; index += 1) {
    const name = `lag-${index}`;
    const created = await stack.admin.post('/api/admin/projects/default/features', { name });
    if (created.status !== 201) throw new Error(`create failed: ${created.status}`);
    const start = performance.now();
    for (;;) {
      const reply = await stack.admin.post('/api/admin/events/search', { feature: name });
      if (reply.body.events.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    samples.push(performance.now() - start);
  }
  const summary = summarize(samples);
  return { changes, p50Ms: round(summary.p50), p99Ms: round(summary.p99), maxMs: round(summary.max) };
}
