import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

export type UnitTotal = { metric: string; unit: string; total: number; events: number };
export type UnitAnswer = { feature: string; unit: string; answer: string };

const MomentRow = z.object({
  at: z.string(),
  answer: z.string(),
  n: z.number(),
  withHistory: z.number(),
  /** Σ of y, d, x, dx and of their products (yy, yd, yx, ydx, dd, dx, ddx, xx, xdx, dxdx). */
  sums: z.array(z.number()),
});

/** Tracked outcomes per user and day, the answers each user was given, and how full each environment's day is. */
export const trackedUnitStore = {
  /** The day's count of (user, metric) rows, locked until the transaction ends so replicas admit one at a time. */
  async lockDay(tx: Queryable, environment: string, day: string): Promise<number> {
    await tx.query(sql.unsafe`insert into insights.tracked_unit_days (environment, day, units)
      values (${environment}, ${day}::date, 0) on conflict do nothing`);
    return tx.oneFirst(sql.type(z.object({ units: z.number() }))`select units::int8 as units
      from insights.tracked_unit_days where environment = ${environment} and day = ${day}::date for update`);
  },

  /** Which of these (metric, user) pairs the day already holds. */
  async held(tx: Queryable, environment: string, day: string, keys: readonly { metric: string; unit: string }[]) {
    if (keys.length === 0) return new Set<string>();
    const rows = await tx.any(sql.type(z.object({ metric: z.string(), unit: z.string() }))`
      select t.metric, t.unit_key as unit from insights.tracked_totals t
      join unnest(${sql.array(
        keys.map((key) => key.metric),
        'text',
      )}::text[], ${sql.array(
        keys.map((key) => key.unit),
        'text',
      )}::text[]) as k(metric, unit_key) on t.metric = k.metric and t.unit_key = k.unit_key
      where t.environment = ${environment} and t.day = ${day}::date`);
    return new Set(rows.map((row) => `${row.metric}\u0000${row.unit}`));
  },

  /** Adds to each user's day total (in key order, so concurrent runs lock rows alike) and counts the new rows. */
  async add(tx: Queryable, environment: string, day: string, totals: readonly UnitTotal[], fresh: number) {
    if (totals.length === 0) return;
    const sorted = [...totals].sort((a, b) => a.metric.localeCompare(b.metric) || a.unit.localeCompare(b.unit));
    await tx.query(sql.unsafe`
      insert into insights.tracked_totals (environment, metric, day, unit_key, total, events)
      select ${environment}, t.metric, ${day}::date, t.unit_key, t.total, t.events
      from unnest(${sql.array(
        sorted.map((row) => row.metric),
        'text',
      )}::text[], ${sql.array(
        sorted.map((row) => row.unit),
        'text',
      )}::text[], ${sql.array(
        sorted.map((row) => row.total),
        'float8',
      )}::float8[], ${sql.array(
        sorted.map((row) => row.events),
        'int8',
      )}::int8[]) as t(metric, unit_key, total, events)
      on conflict (environment, metric, day, unit_key) do update
        set total = insights.tracked_totals.total + excluded.total,
            events = insights.tracked_totals.events + excluded.events`);
    if (fresh > 0) {
      await tx.query(sql.unsafe`update insights.tracked_unit_days set units = units + ${fresh}
        where environment = ${environment} and day = ${day}::date`);
    }
  },

  /** The users a flag has answered in the environment, locked until the transaction ends. */
  async lockFlag(tx: Queryable, environment: string, feature: string): Promise<number> {
    await tx.query(sql.unsafe`insert into insights.tracked_flag_units (environment, feature, units)
      values (${environment}, ${feature}, 0) on conflict do nothing`);
    return tx.oneFirst(sql.type(z.object({ units: z.number() }))`select units::int8 as units
      from insights.tracked_flag_units where environment = ${environment} and feature = ${feature} for update`);
  },

  /** Which of these users the flag has already answered in the environment (any answer). */
  async answered(tx: Queryable, environment: string, feature: string, units: readonly string[]) {
    if (units.length === 0) return new Set<string>();
    const rows = await tx.any(sql.type(z.object({ unit: z.string() }))`
      select distinct unit_key as unit from insights.tracked_answers
      where environment = ${environment} and feature = ${feature} and unit_key = any(${sql.array([...units], 'text')})`);
    return new Set(rows.map((row) => row.unit));
  },

  async countFlagUnits(tx: Queryable, environment: string, feature: string, fresh: number) {
    if (fresh === 0) return;
    await tx.query(sql.unsafe`update insights.tracked_flag_units set units = units + ${fresh}
      where environment = ${environment} and feature = ${feature}`);
  },

  /** Keeps each answer a user was given with the first and last day it was. */
  async answers(tx: Queryable, environment: string, day: string, answers: readonly UnitAnswer[]) {
    if (answers.length === 0) return;
    const sorted = [...answers].sort(
      (a, b) => a.feature.localeCompare(b.feature) || a.unit.localeCompare(b.unit) || a.answer.localeCompare(b.answer),
    );
    await tx.query(sql.unsafe`
      insert into insights.tracked_answers (environment, feature, unit_key, answer, first_day, last_day)
      select ${environment}, t.feature, t.unit_key, t.answer, ${day}::date, ${day}::date
      from unnest(${sql.array(
        sorted.map((row) => row.feature),
        'text',
      )}::text[], ${sql.array(
        sorted.map((row) => row.unit),
        'text',
      )}::text[], ${sql.array(
        sorted.map((row) => row.answer),
        'text',
      )}::text[]) as t(feature, unit_key, answer)
      on conflict (environment, feature, unit_key, answer) do update
        set last_day = greatest(insights.tracked_answers.last_day, excluded.last_day),
            first_day = least(insights.tracked_answers.first_day, excluded.first_day)`);
  },

  /**
   * Per step day and answer: the users given exactly that one answer since `from`, counted from the day they were
   * first seen, with the sums and cross sums of their values: y (the metric from `from` to the step), d (the
   * denominator's), x and dx (both in the `preDays` before `from`). A converted metric's values are 1 or 0.
   */
  async moments(
    db: Queryable,
    query: {
      environment: string;
      feature: string;
      metric: string;
      denominator: string | null;
      converted: boolean;
      from: string;
      preFrom: string;
      steps: readonly string[];
    },
  ) {
    const metrics = sql.fragment`t.metric in (${query.metric}, coalesce(${query.denominator}, ${query.metric}))`;
    const num = sql.fragment`t.metric = ${query.metric}`;
    const den = sql.fragment`t.metric = ${query.denominator}`;
    // One pass over the users' rows: each user's running totals change only on the days they tracked something, so
    // a user is a few segments [start, stop) of constant values; segments alike are summed once, then each step day
    // adds up the segments that cover it. (A join per step day read every row once per day: 10 s at 100,000 users.)
    // A large experiment's reading may take longer than a request's 30 s; it runs in the background (see the view).
    return db.transaction(async (tx) => {
      await tx.query(sql.unsafe`set local statement_timeout = '180s'`);
      return tx.any(sql.type(MomentRow)`
      with units as (
        select unit_key, min(answer) as answer, greatest(min(first_day), ${query.from}::date) as entry
        from insights.tracked_answers
        where environment = ${query.environment} and feature = ${query.feature} and last_day >= ${query.from}::date
        group by unit_key
        having count(*) = 1
      ),
      pre as (
        select t.unit_key,
          coalesce(sum(t.total) filter (where ${num}), 0) as x,
          coalesce(sum(t.events) filter (where ${num}), 0) as xe,
          coalesce(sum(t.total) filter (where ${den}), 0) as dx
        from insights.tracked_totals t join units u using (unit_key)
        where t.environment = ${query.environment} and ${metrics}
          and t.day >= ${query.preFrom}::date and t.day < ${query.from}::date
        group by t.unit_key
      ),
      changes as (
        select unit_key, answer, entry as start, 0::float8 as y, 0::int8 as ye, 0::float8 as d from units
        union all
        select t.unit_key, u.answer, greatest(t.day, u.entry),
          coalesce(sum(t.total) filter (where ${num}), 0),
          coalesce(sum(t.events) filter (where ${num}), 0),
          coalesce(sum(t.total) filter (where ${den}), 0)
        from insights.tracked_totals t join units u using (unit_key)
        where t.environment = ${query.environment} and ${metrics} and t.day >= ${query.from}::date
        group by t.unit_key, u.answer, t.day, u.entry
      ),
      running as (
        select unit_key, answer, start,
          sum(y) over w as y, sum(ye) over w as ye, sum(d) over w as d,
          coalesce(lead(start) over (partition by unit_key order by start, ye), 'infinity'::date) as stop
        from changes
        window w as (partition by unit_key order by start, ye rows unbounded preceding)
      ),
      vals as (
        select r.answer, r.start, r.stop,
          case when ${query.converted} then sign(r.ye)::float8 else r.y end as y, r.d,
          case when ${query.converted} then sign(coalesce(p.xe, 0))::float8 else coalesce(p.x, 0) end as x,
          coalesce(p.dx, 0) as dx,
          p.unit_key is not null as history
        from running r left join pre p using (unit_key)
        where r.stop > r.start
      ),
      segments as (
        select answer, start, stop, count(*) as n, count(*) filter (where history) as h,
          sum(y) as y, sum(d) as d, sum(x) as x, sum(dx) as dx,
          sum(y*y) as yy, sum(y*d) as yd, sum(y*x) as yx, sum(y*dx) as ydx, sum(d*d) as dd, sum(d*x) as ddx_,
          sum(d*dx) as ddx, sum(x*x) as xx, sum(x*dx) as xdx, sum(dx*dx) as dxdx
        from vals group by answer, start, stop
      )
      select to_char(s.at, 'YYYY-MM-DD') as at, g.answer, sum(g.n)::int8 as n, sum(g.h)::int8 as "withHistory",
        array[sum(g.y), sum(g.d), sum(g.x), sum(g.dx), sum(g.yy), sum(g.yd), sum(g.yx), sum(g.ydx), sum(g.dd),
          sum(g.ddx_), sum(g.ddx), sum(g.xx), sum(g.xdx), sum(g.dxdx)]::float8[] as sums
      from unnest(${sql.array(query.steps, 'date')}::date[]) as s(at)
      join segments g on g.start <= s.at and s.at < g.stop
      group by s.at, g.answer order by s.at, g.answer`);
    });
  },

  /** Users given more than one answer since `from`: left out of the comparison. */
  excluded(db: Queryable, environment: string, feature: string, from: string) {
    return db.oneFirst(sql.type(z.object({ count: z.number() }))`
      select count(*)::int8 as count from (
        select unit_key from insights.tracked_answers
        where environment = ${environment} and feature = ${feature} and last_day >= ${from}::date
        group by unit_key having count(*) > 1) many`);
  },

  /** Drops days older than `beforeDay`, and answers last given before it. */
  async prune(db: Queryable, beforeDay: string) {
    await db.query(sql.unsafe`delete from insights.tracked_totals where day < ${beforeDay}::date`);
    const gone = await db.query(sql.unsafe`delete from insights.tracked_answers where last_day < ${beforeDay}::date`);
    await db.query(sql.unsafe`delete from insights.tracked_unit_days where day < ${beforeDay}::date`);
    // Users no flag answers any more leave their flags' counts (only when some went: it counts every answer).
    if (gone.rowCount > 0) {
      await db.query(sql.unsafe`update insights.tracked_flag_units f set units = coalesce((
        select count(distinct a.unit_key) from insights.tracked_answers a
        where a.environment = f.environment and a.feature = f.feature), 0)`);
    }
  },
};
