import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sql } from '@bunting/platform';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { impactVariants } from './impact-variants.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ target: 'insights' });
});
afterAll(() => stack?.dispose());

const started = '2026-11-20T15:30:00.000Z';
const at = (iso: string) => new Date(iso).toISOString();

describe("an experiment's figures per variant", () => {
  it('counts exposures and outcomes alike once the SDK metrics of its first day are rolled up into the day', async () => {
    // The first day's hours are rolled up (one row at midnight); the next day's are still hourly.
    const exposure = (hour: string, variant: string, count: number) =>
      stack.db
        .query(sql.unsafe`insert into insights.metric_variant_hours (hour, app_name, environment, feature_name, variant, count)
        values (${at(hour)}, 'shop', 'production', 'colour', ${variant}, ${count})`);
    await exposure('2026-11-20T00:00:00Z', 'blue', 1000);
    await exposure('2026-11-20T00:00:00Z', 'green', 1000);
    await exposure('2026-11-21T10:00:00Z', 'blue', 500);
    await exposure('2026-11-21T10:00:00Z', 'green', 500);
    await stack.db.query(
      sql.unsafe`insert into insights.impact_metrics (name, type, last_seen) values ('unleash_counter_sales', 'counter', now())`,
    );
    const series = async (variant: string) =>
      stack.db.oneFirst(sql.type(z.object({ id: z.number() }))`
        insert into insights.impact_series (metric, label_key, labels, environment, app, last_seen)
        values ('unleash_counter_sales', ${variant}, ${sql.jsonb({ colour: variant, environment: 'production', appName: 'shop' })}, 'production', 'shop', now())
        returning id::int8 as id`);
    const point = (id: number, resolution: number, when: string, value: number) =>
      stack.db.query(sql.unsafe`insert into insights.impact_points (series_id, resolution, at, value)
        values (${id}, ${resolution}, ${at(when)}, ${value})`);
    const blue = await series('blue');
    const green = await series('green');
    // Quarter hours (what is kept after 48 hours): before the start that day, after it, and the next day.
    for (const [id, morning, afternoon, next] of [
      [blue, 50, 150, 100],
      [green, 60, 240, 150],
    ] as const) {
      await point(id, 900, '2026-11-20T09:00:00Z', morning);
      await point(id, 900, '2026-11-20T16:00:00Z', afternoon);
      await point(id, 900, '2026-11-21T10:15:00Z', next);
    }

    const answer = await impactVariants(
      stack.db,
      { metricName: 'sales', featureName: 'colour', environment: 'production', since: started },
      Date.parse('2026-11-23T12:00:00Z'),
    );
    expect(answer.type).toBe('counter');
    // Days, both from the start of the day the experiment began: the rolled-up day is there, with its morning.
    expect(answer.steps).toEqual([
      {
        at: '2026-11-20T00:00:00.000Z',
        exposures: { blue: 1000, green: 1000 },
        arms: {
          blue: { total: 200, observations: null, squares: null },
          green: { total: 300, observations: null, squares: null },
        },
      },
      {
        at: '2026-11-21T00:00:00.000Z',
        exposures: { blue: 500, green: 500 },
        arms: {
          blue: { total: 100, observations: null, squares: null },
          green: { total: 150, observations: null, squares: null },
        },
      },
    ]);
  });
});
