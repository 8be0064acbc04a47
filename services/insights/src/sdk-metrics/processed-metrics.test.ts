import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from '@bunting/platform';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { z } from 'zod';
import { pruneProcessedMetrics } from './processed-metrics.ts';

let stack: TestStack;
const clientToken = 'default:development.pruning-client';
beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
});
afterAll(() => stack?.dispose());

const Count = z.object({ count: z.number() });

it('forgets the sequences of acknowledged metrics messages and keeps their sums', async () => {
  await stack.admin.post('/api/admin/projects/default/features', { name: 'pruned' });
  const sdk = httpClient(stack.url, { authorization: clientToken });
  for (let post = 0; post < 3; post += 1) {
    const now = new Date().toISOString();
    expect(
      (
        await sdk.post('/api/client/metrics', {
          appName: 'pruning',
          bucket: { start: now, stop: now, toggles: { pruned: { yes: 2, no: 1 } } },
        })
      ).status,
    ).toBeLessThan(300);
  }
  const sum = () =>
    stack.db.oneFirst(
      sql.type(
        Count,
      )`select coalesce(sum(yes + no), 0)::int as count from insights.metric_hours where feature_name = 'pruned'`,
    );
  const held = () => stack.db.oneFirst(sql.type(Count)`select count(*)::int as count from insights.processed_metrics`);
  await eventually(async () => (await sum()) === 9);
  expect(await held()).toBeGreaterThanOrEqual(3);
  const consumer = {
    messaging: stack.messaging,
    stream: stack.messaging.names.metricsStream,
    durable: stack.messaging.names.consumer('insights_metrics'),
  };
  // Once the server has the acknowledgements, every sequence is at or below its ack floor.
  await eventually(async () => {
    await pruneProcessedMetrics(stack.db, consumer);
    return (await held()) === 0;
  });
  expect(await sum()).toBe(9);
});
