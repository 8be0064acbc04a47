import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPOSURE, type MetricsMessage, type TrackedUnit } from '@bunting/contracts';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import type { ImpactDropReason } from '@bunting/contracts';
import { recordTrackedUnits } from './tracked-unit-recording.ts';
import { stepDays, trackedUnits } from './tracked-units.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ target: 'insights' });
});
afterAll(() => stack?.dispose());

const message = (environment: string, receivedAt: string, units: TrackedUnit[]): MetricsMessage => ({
  kind: 'tracked-units',
  environment,
  tokenName: 'test',
  receivedAt,
  body: { appName: 'shop', units },
});
const drops: { reason: ImpactDropReason; count: number; environment: string }[] = [];
const record = (messages: MetricsMessage[], unitsPerDay = 1_000_000, unitsPerFlag = 1_000_000) =>
  stack.db.transaction((tx) =>
    recordTrackedUnits(tx, messages, { unitsPerDay, unitsPerFlag }, (reason, count = 1, environment = 'unknown') => {
      drops.push({ reason, count, environment });
    }),
  );
const spent = (unit: string, variant: string, value: number): TrackedUnit => ({
  unit,
  metric: 'revenue',
  value,
  events: 1,
  answers: { checkout: variant },
});

describe('tracked outcomes per user', () => {
  it('sums each user since the start and in the week before, per answer, with every cross sum', async () => {
    // The week before the start (2026-11-20): u1 and u2 bought; u3 is new. Then each is answered and buys.
    await record([message('production', '2026-11-15T10:00:00Z', [spent('u1', 'blue', 10), spent('u2', 'green', 4)])]);
    await record([message('production', '2026-11-01T10:00:00Z', [spent('u1', 'blue', 1000)])]); // before the week
    await record([
      message('production', '2026-11-20T09:00:00Z', [
        spent('u1', 'blue', 12),
        spent('u1', 'blue', 3),
        spent('u2', 'green', 6),
        { unit: 'u3', metric: EXPOSURE, value: 0, events: 1, answers: { checkout: 'green' } },
      ]),
      message('production', '2026-11-21T09:00:00Z', [spent('u2', 'green', 2)]),
    ]);
    const answer = await trackedUnits(
      stack.db,
      {
        featureName: 'checkout',
        environment: 'production',
        metricName: 'revenue',
        denominator: null,
        aggregation: 'sum',
        preDays: 7,
        since: '2026-11-20T08:00:00.000Z',
      },
      Date.parse('2026-11-21T12:00:00Z'),
    );
    expect(answer.excludedUnits).toBe(0);
    expect(answer.steps.map((step) => step.at)).toEqual(['2026-11-20T23:59:59.999Z', '2026-11-21T23:59:59.999Z']);
    const last = answer.steps[1]!;
    // blue: u1 (y 15, x 10). green: u2 (y 8, x 4) and u3 (answered, nothing bought: y 0, x 0).
    expect(last.arms.blue).toEqual({
      n: 1,
      sums: [15, 0, 10, 0],
      products: [
        [225, 0, 150, 0],
        [0, 0, 0, 0],
        [150, 0, 100, 0],
        [0, 0, 0, 0],
      ],
      withHistory: 1,
    });
    expect(last.arms.green!.n).toBe(2);
    expect(last.arms.green!.sums).toEqual([8, 0, 4, 0]);
    expect(last.arms.green!.products[0]).toEqual([64, 0, 32, 0]);
    // The first day: u2's purchase of the 21st is not in it yet.
    expect(answer.steps[0]!.arms.green!.sums).toEqual([6, 0, 4, 0]);
  });

  it('reads whether each user converted, and a ratio with its denominator', async () => {
    const base = { featureName: 'checkout', environment: 'production', preDays: 7, since: '2026-11-20T08:00:00Z' };
    const now = Date.parse('2026-11-21T12:00:00Z');
    const converted = await trackedUnits(
      stack.db,
      { ...base, metricName: 'revenue', denominator: null, aggregation: 'converted' },
      now,
    );
    expect(converted.steps.at(-1)!.arms.green!.sums).toEqual([1, 0, 1, 0]);
    await record([
      message('production', '2026-11-20T10:00:00Z', [
        { unit: 'u1', metric: 'orders', value: 2, events: 2, answers: { checkout: 'blue' } },
      ]),
    ]);
    const ratio = await trackedUnits(
      stack.db,
      { ...base, metricName: 'revenue', denominator: 'orders', aggregation: 'sum' },
      now,
    );
    const blue = ratio.steps.at(-1)!.arms.blue!;
    expect(blue.sums).toEqual([15, 2, 10, 0]);
    expect(blue.products[0]![1]).toBe(30);
  });

  it('leaves out users answered two ways, and counts them', async () => {
    await record([message('production', '2026-11-21T11:00:00Z', [spent('u1', 'green', 1)])]);
    const answer = await trackedUnits(
      stack.db,
      {
        featureName: 'checkout',
        environment: 'production',
        metricName: 'revenue',
        denominator: null,
        aggregation: 'sum',
        preDays: 7,
        since: '2026-11-20T08:00:00Z',
      },
      Date.parse('2026-11-21T12:00:00Z'),
    );
    expect(answer.excludedUnits).toBe(1);
    expect(answer.steps.at(-1)!.arms.blue).toBeUndefined();
  });

  it('keeps an environment within its users a day, counting what it drops, and adds up those it holds', async () => {
    const day = '2026-11-25T10:00:00Z';
    await record([message('staging', day, [spent('a', 'blue', 1), spent('b', 'blue', 1)])], 2);
    await record([message('staging', day, [spent('a', 'blue', 1), spent('c', 'blue', 1)])], 2);
    await record([message('production', day, [spent('c', 'blue', 1)])], 2);
    expect(drops).toEqual([{ reason: 'too_many_units', count: 1, environment: 'staging' }]);
    const answer = await trackedUnits(
      stack.db,
      {
        featureName: 'checkout',
        environment: 'staging',
        metricName: 'revenue',
        denominator: null,
        aggregation: 'sum',
        preDays: 0,
        since: day,
      },
      Date.parse(day),
    );
    expect(answer.steps[0]!.arms.blue).toMatchObject({ n: 2, sums: [3, 0, 0, 0] });
  });

  it("keeps a flag's answers within its users (an experiment's), counting the newcomers it drops", async () => {
    drops.length = 0;
    const day = '2026-11-26T10:00:00Z';
    const answered = (unit: string, variant: string): TrackedUnit => ({
      unit,
      metric: EXPOSURE,
      value: 0,
      events: 1,
      answers: { signup: variant },
    });
    await record([message('qa', day, [answered('a', 'blue'), answered('b', 'green')])], 1_000_000, 2);
    // a and b again (one of them now answered otherwise), c new: c is beyond the flag's two users.
    await record(
      [message('qa', day, [answered('a', 'blue'), answered('b', 'blue'), answered('c', 'blue')])],
      1_000_000,
      2,
    );
    expect(drops).toEqual([{ reason: 'too_many_units', count: 1, environment: 'qa' }]);
    const answer = await trackedUnits(
      stack.db,
      {
        featureName: 'signup',
        environment: 'qa',
        metricName: 'revenue',
        denominator: null,
        aggregation: 'sum',
        preDays: 0,
        since: day,
      },
      Date.parse(day),
    );
    // a in blue; b answered two ways is left out; c never joined.
    expect(answer.steps[0]!.arms).toEqual({ blue: expect.objectContaining({ n: 1 }) });
    expect(answer.excludedUnits).toBe(1);
  });

  it('reads at most 15 days, evenly spread, ending today', () => {
    expect(stepDays(Date.parse('2026-11-20T08:00:00Z'), Date.parse('2026-11-22T01:00:00Z'))).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
    const long = stepDays(Date.parse('2026-10-01T08:00:00Z'), Date.parse('2026-11-29T01:00:00Z'));
    expect(long).toHaveLength(15);
    expect(long[0]).toBe('2026-10-01');
    expect(long.at(-1)).toBe('2026-11-29');
  });
});
