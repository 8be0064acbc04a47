import type { MetricsMessage, TrackedUnit } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { DropCounter } from '../impact-metrics/impact-points.ts';
import type { TrackingLimits } from './tracking-limits.ts';
import { trackedUnitStore, type UnitAnswer, type UnitTotal } from './tracked-unit-store.ts';

type Tracked = Extract<MetricsMessage, { kind: 'tracked-units' }>;
const keyOf = (metric: string, unit: string) => `${metric}\u0000${unit}`;
const dayOf = (at: string) => new Date(at).toISOString().slice(0, 10);

/**
 * Adds a run's tracked outcomes to each user's day, within `unitsPerDay` (user, metric) rows per environment and day
 * (a user already counted that day always adds up), and each flag's answers within `unitsPerFlag` users per
 * environment (an experiment's users); what is beyond either bound is dropped and counted as too_many_units. The answers each kept user was given are kept beside, in the same transaction as the rest of the
 * run (which makes a redelivered run change nothing).
 */
export async function recordTrackedUnits(
  tx: Queryable,
  messages: readonly MetricsMessage[],
  limits: Pick<TrackingLimits, 'unitsPerDay' | 'unitsPerFlag'>,
  drop: DropCounter,
): Promise<void> {
  const byDay = new Map<string, { environment: string; day: string; units: TrackedUnit[] }>();
  for (const message of messages) {
    if (message.kind !== 'tracked-units') continue;
    const day = dayOf(message.receivedAt);
    const key = `${message.environment}\u0000${day}`;
    const held = byDay.get(key) ?? { environment: message.environment, day, units: [] };
    held.units.push(...(message as Tracked).body.units);
    byDay.set(key, held);
  }
  // Environments and days in key order: two replicas lock their day rows alike.
  for (const key of [...byDay.keys()].sort()) {
    const { environment, day, units } = byDay.get(key)!;
    const totals = new Map<string, UnitTotal>();
    const answers = new Map<string, UnitAnswer>();
    for (const unit of units) {
      const total = totals.get(keyOf(unit.metric, unit.unit)) ?? {
        metric: unit.metric,
        unit: unit.unit,
        total: 0,
        events: 0,
      };
      total.total += unit.value;
      total.events += unit.events;
      totals.set(keyOf(unit.metric, unit.unit), total);
    }
    const held = await trackedUnitStore.lockDay(tx, environment, day);
    const known = await trackedUnitStore.held(tx, environment, day, [...totals.values()]);
    let room = Math.max(0, limits.unitsPerDay - held);
    const kept: UnitTotal[] = [];
    let dropped = 0;
    for (const [key, total] of totals) {
      if (known.has(key)) kept.push(total);
      else if (room > 0) {
        room -= 1;
        kept.push(total);
      } else dropped += 1;
    }
    const keptKeys = new Set(kept.map((total) => keyOf(total.metric, total.unit)));
    for (const unit of units) {
      if (!keptKeys.has(keyOf(unit.metric, unit.unit))) continue;
      for (const [feature, answer] of Object.entries(unit.answers)) {
        answers.set(`${feature}\u0000${unit.unit}\u0000${answer}`, { feature, unit: unit.unit, answer });
      }
    }
    // Every pair the day already held is kept, so the rest kept are new rows.
    await trackedUnitStore.add(tx, environment, day, kept, kept.length - known.size);
    // Each flag answers at most maxPerFlag users here (an experiment's users): one already answered always counts.
    const byFlag = Map.groupBy(answers.values(), (answer) => answer.feature);
    for (const feature of [...byFlag.keys()].sort()) {
      const given = byFlag.get(feature)!;
      const counted = await trackedUnitStore.lockFlag(tx, environment, feature);
      const seen = await trackedUnitStore.answered(tx, environment, feature, [...new Set(given.map((a) => a.unit))]);
      let space = Math.max(0, limits.unitsPerFlag - counted);
      const admitted = new Set<string>();
      const newcomers = new Set<string>();
      for (const answer of given) {
        if (seen.has(answer.unit) || admitted.has(answer.unit)) continue;
        if (space > 0) {
          space -= 1;
          admitted.add(answer.unit);
        } else newcomers.add(answer.unit);
      }
      dropped += newcomers.size;
      await trackedUnitStore.answers(
        tx,
        environment,
        day,
        given.filter((answer) => !newcomers.has(answer.unit)),
      );
      await trackedUnitStore.countFlagUnits(tx, environment, feature, admitted.size);
    }
    if (dropped > 0) drop('too_many_units', dropped, environment);
  }
}
