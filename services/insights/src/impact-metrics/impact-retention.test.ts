import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sql } from '@bunting/platform';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { pruneImpactMetrics } from './impact-retention.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ target: 'insights' });
});
afterAll(() => stack?.dispose());

const now = Date.parse('2026-11-26T12:00:00Z');
const ago = (hours: number) => new Date(now - hours * 3_600_000).toISOString();
const limits = {
  metrics: 500,
  seriesPerMetric: 1000,
  seriesPerEnvironment: 20_000,
  labelsPerSeries: 20,
  minuteHours: 48,
  retentionDays: 30,
};

describe('impact metrics retention', () => {
  it('keeps minutes 48 hours, quarters 8 days, hours and series the retention days, and drops metrics left empty', async () => {
    await stack.db.query(sql.unsafe`insert into insights.impact_metrics (name, type, last_seen) values
      ('unleash_counter_kept', 'counter', ${ago(1)}), ('unleash_counter_gone', 'counter', ${ago(800)}), ('unleash_counter_registered', 'counter', ${ago(800)})`);
    await stack.db.query(
      sql.unsafe`update insights.impact_metrics set registered = true where name = 'unleash_counter_registered'`,
    );
    const series = async (metric: string, lastSeen: string) =>
      stack.db.oneFirst(sql.type(z.object({ id: z.number() }))`
      insert into insights.impact_series (metric, label_key, labels, last_seen) values (${metric}, '[]', '{}', ${lastSeen}) returning id::int8 as id`);
    const kept = await series('unleash_counter_kept', ago(1));
    const gone = await series('unleash_counter_gone', ago(800));
    const point = (id: number, resolution: number, hoursAgo: number) =>
      stack.db.query(sql.unsafe`
      insert into insights.impact_points (series_id, resolution, at, value) values (${id}, ${resolution}, ${ago(hoursAgo)}, 1)`);
    for (const [resolution, hours] of [
      [60, 47],
      [60, 49],
      [900, 7 * 24],
      [900, 9 * 24],
      [3600, 29 * 24],
      [3600, 31 * 24],
    ] as const)
      await point(kept, resolution, hours);
    await point(gone, 3600, 700);

    await pruneImpactMetrics(stack.db, limits, now);

    const left = await stack.db.any(sql.type(z.object({ resolution: z.number(), hours: z.number() }))`
      select resolution, round(extract(epoch from (${new Date(now).toISOString()}::timestamptz - at)) / 3600)::int4 as hours
      from insights.impact_points order by resolution, at desc`);
    expect(left).toEqual([
      { resolution: 60, hours: 47 },
      { resolution: 900, hours: 168 },
      { resolution: 3600, hours: 696 },
    ]);
    const metrics = await stack.db.anyFirst(
      sql.type(z.object({ name: z.string() }))`select name from insights.impact_metrics order by name`,
    );
    expect(metrics).toEqual(['unleash_counter_kept', 'unleash_counter_registered']);
  });
});
