import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Queryable } from '@bunting/platform';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { z } from 'zod';
import { applyRetention, readRetentionPolicy } from './metric-retention.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ target: 'insights' });
});
afterAll(() => stack?.dispose());

const now = new Date('2026-11-24T13:30:00Z');
const policy = { hourlyHours: 48, metricsDays: 90, instancesDays: 30 };
const hoursAgo = (hours: number) => new Date(Date.UTC(2026, 10, 24, 13) - hours * 3_600_000).toISOString();

async function report(
  db: Queryable,
  feature: string,
  hour: string,
  yes: number,
  no: number,
  variants: Record<string, number> = {},
) {
  await db.query(sql.unsafe`insert into insights.metric_hours (hour, app_name, environment, feature_name, yes, no)
    values (${hour}, 'shop', 'production', ${feature}, ${yes}, ${no})`);
  for (const [variant, count] of Object.entries(variants)) {
    await db.query(sql.unsafe`insert into insights.metric_variant_hours (hour, app_name, environment, feature_name, variant, count)
      values (${hour}, 'shop', 'production', ${feature}, ${variant}, ${count})`);
  }
}

const Row = z.object({ hour: z.string(), yes: z.number(), no: z.number() });
const rowsOf = (db: Queryable, feature: string) =>
  db.any(sql.type(Row)`
  select to_char(hour at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI') as hour, yes::int as yes, no::int as no
  from insights.metric_hours where feature_name = ${feature} order by hour`);
const VariantRow = z.object({ hour: z.string(), variant: z.string(), count: z.number() });
const variantsOf = (db: Queryable, feature: string) =>
  db.any(sql.type(VariantRow)`
  select to_char(hour at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI') as hour, variant, count::int as count
  from insights.metric_variant_hours where feature_name = ${feature} order by hour, variant`);

describe('metrics retention', () => {
  // The service under test applies retention itself, at the real date, when it starts and every hour; each test's
  // rows, its own retention at a fixed date and its reads are in one transaction, so that run never sees them.
  it('sums hours older than two days into their UTC day, keeps the last two days per hour, and keeps every count', () =>
    stack.db.transaction(async (db) => {
      // The cut is 2026-11-22 13:30. The 21st: midnight, 10:00 and 20:00; the 22nd: 02:00, 10:00 and 13:00 before the
      // cut, 14:00 after it; and the last hour.
      for (const [ago, yes] of [
        [85, 1],
        [75, 2],
        [65, 4],
        [59, 8],
        [51, 16],
        [48, 32],
        [47, 64],
        [1, 128],
      ] as const) {
        await report(db, 'checkout', hoursAgo(ago), yes, 1, ago === 75 || ago === 65 ? { blue: yes } : {});
      }
      const before = await rowsOf(db, 'checkout');
      const result = await applyRetention(db, policy, now);
      expect(result.rolledUp).toBe(5);
      expect(await rowsOf(db, 'checkout')).toEqual([
        { hour: '2026-11-21T00:00', yes: 1 + 2 + 4, no: 3 },
        { hour: '2026-11-22T00:00', yes: 8 + 16 + 32, no: 3 },
        { hour: '2026-11-22T14:00', yes: 64, no: 1 },
        { hour: '2026-11-24T12:00', yes: 128, no: 1 },
      ]);
      const total = (rows: readonly z.infer<typeof Row>[]) => rows.reduce((sum, row) => sum + row.yes + row.no, 0);
      expect(total(await rowsOf(db, 'checkout'))).toBe(total(before));
      expect(await variantsOf(db, 'checkout')).toEqual([{ hour: '2026-11-21T00:00', variant: 'blue', count: 6 }]);
      // Applying it again (another replica, the next hour) changes nothing.
      expect((await applyRetention(db, policy, now)).rolledUp).toBe(0);
      expect(total(await rowsOf(db, 'checkout'))).toBe(total(before));
    }));

  it('drops metrics past the kept period and instances not seen for a while', () =>
    stack.db.transaction(async (db) => {
      await report(db, 'old', hoursAgo(24 * 91), 5, 5, { red: 1 });
      await report(db, 'old', hoursAgo(24 * 89), 7, 0);
      await db.query(sql.unsafe`insert into insights.application_instances (app_name, instance_id, environment, last_seen)
      values ('shop', 'gone', 'production', ${hoursAgo(24 * 31)}), ('shop', 'here', 'production', ${hoursAgo(24 * 29)})`);
      const result = await applyRetention(db, policy, now);
      expect(result).toMatchObject({ dropped: 1, instancesDropped: 1 });
      expect((await rowsOf(db, 'old')).map((row) => row.yes)).toEqual([7]);
      expect(await variantsOf(db, 'old')).toEqual([]);
      const instances = await db.anyFirst(
        sql.type(z.object({ id: z.string() }))`select instance_id as id from insights.application_instances order by 1`,
      );
      expect(instances).toEqual(['here']);
    }));

  it('reads its periods from the environment and refuses ones that cannot work', () => {
    expect(readRetentionPolicy({})).toEqual({ hourlyHours: 48, metricsDays: 90, instancesDays: 30 });
    expect(readRetentionPolicy({ METRICS_RETENTION_DAYS: '30', CLIENT_INSTANCE_RETENTION_DAYS: '7' })).toMatchObject({
      metricsDays: 30,
      instancesDays: 7,
    });
    expect(() => readRetentionPolicy({ METRICS_RETENTION_DAYS: '1' })).toThrow(/METRICS_RETENTION_DAYS/);
    expect(() => readRetentionPolicy({ METRICS_RETENTION_DAYS: 'ninety' })).toThrow(/METRICS_RETENTION_DAYS/);
  });
});
