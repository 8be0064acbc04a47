import { afterAll, beforeAll, expect, it } from 'vitest';
import { MetricsMessage } from '@bunting/contracts';
import { createOutbox, sql } from '@bunting/platform';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { z } from 'zod';
import { applicationAnnouncer } from '../applications/application-events.ts';
import { recordMetrics } from './metric-recording.ts';
import { UNKNOWN_FLAGS_PER_APP } from './metric-store.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ target: 'admin-api,insights' });
});
afterAll(() => stack?.dispose());

it('keeps the names of flags no project has within a bound per application, always keeping ones seen before', async () => {
  const announce = applicationAnnouncer(createOutbox('insights'), stack.messaging);
  const everyNameUnknown = async (names: readonly string[]) => new Set(names);
  const post = (app: string, names: string[], sequence: number) =>
    recordMetrics(
      stack.db,
      MetricsMessage.parse({
        kind: 'client-metrics',
        receivedAt: new Date().toISOString(),
        environment: 'development',
        tokenName: 't',
        body: {
          appName: app,
          bucket: {
            start: new Date().toISOString(),
            stop: new Date().toISOString(),
            toggles: Object.fromEntries(names.map((name) => [name, { yes: 1 }])),
          },
        },
      }),
      sequence,
      announce,
      everyNameUnknown,
    );
  const batch = (from: number) => Array.from({ length: 300 }, (_, index) => `made-up-${from + index}`);
  for (let round = 0; round < 5; round += 1) await post('flooder', batch(round * 300), 8_000_000 + round);
  const stored = (app: string) =>
    stack.db.oneFirst(sql.type(z.object({ count: z.number() }))`
    select count(distinct feature_name)::int as count from insights.metric_hours where app_name = ${app}`);
  expect(await stored('flooder')).toBe(UNKNOWN_FLAGS_PER_APP);
  // A name kept before is still counted; another application has a bound of its own.
  await post('flooder', ['made-up-0'], 8_000_100);
  await post('other-app', ['made-up-0'], 8_000_101);
  expect(await stored('other-app')).toBe(1);
  const counts = await stack.db.oneFirst(sql.type(z.object({ yes: z.number() }))`
    select coalesce(sum(yes), 0)::int as yes from insights.metric_hours where app_name = 'flooder' and feature_name = 'made-up-0'`);
  expect(counts).toBe(2);
});
