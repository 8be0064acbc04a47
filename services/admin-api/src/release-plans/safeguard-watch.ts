import { SYSTEM_ACTOR, type SafeguardComparison } from '@bunting/contracts';
import { repeatEvery, type DatabasePool, type Logger, type Metrics } from '@bunting/platform';
import type { Change, Changes } from '../events/changes.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import { strategyReadModel } from '../strategies/strategy-read-model.ts';
import { lookAtGuardrail, type ReadArms } from './guardrail-look.ts';
import { releasePlanService } from './release-plan-service.ts';
import { releasePlanStore, type SafeguardRow } from './release-plan-store.ts';

const BATCH = 50;

/** An impact metric's value now, as insights reads it (or the external source): null with nothing to go by. */
export type ReadImpactValue = (metric: SafeguardRow['metric']) => Promise<{ value: number | null; error?: string }>;

const crossed = (safeguard: SafeguardRow, value: number) =>
  safeguard.operator === '>' ? value > safeguard.threshold : value < safeguard.threshold;

/**
 * Reads every safeguard's metric each `intervalMs`, once across replicas: each is taken under a row lock that
 * other replicas skip, read, and acted on in the transaction that records the reading. One that crossed its
 * threshold pauses its plan or turns its flag off (unless already done). A metric that cannot be read (an external
 * source down) is recorded as such and neither trips nor clears the safeguard. A guardrail compares instead
 * (`compare`).
 */
export function startSafeguardWatch(
  deps: {
    db: DatabasePool;
    changes: Changes;
    log: Logger;
    read: ReadImpactValue;
    readArms: ReadArms;
    guardrailSettleMs: number;
    metrics?: Metrics;
  },
  intervalMs: number,
) {
  const outcomes = deps.metrics?.counter(
    'bunting_safeguard_readings_total',
    'Safeguard readings this replica took, by outcome (held, tripped, acted, unreadable)',
    ['outcome'],
  );

  async function evaluate(id: string) {
    const outcome = await deps.changes.run({ system: SYSTEM_ACTOR }, async (change) => {
      const safeguard = await releasePlanStore.safeguard(change.tx, id, { forUpdate: 'skip' });
      if (!safeguard) return null;
      if (safeguard.evaluatedAt && Date.parse(safeguard.evaluatedAt) > Date.now() - intervalMs * 0.9) return null;
      if (safeguard.comparison) return compare(change, { ...safeguard, comparison: safeguard.comparison });
      const reading = await deps
        .read(safeguard.metric)
        .catch((error: unknown) => ({ value: null, error: (error as Error).message }));
      if (reading.error !== undefined) {
        await releasePlanStore.recordReading(change.tx, id, { error: reading.error });
        return 'unreadable';
      }
      if (reading.value === null || !crossed(safeguard, reading.value)) {
        await releasePlanStore.recordReading(change.tx, id, { error: null });
        return 'held';
      }
      const acted = await releasePlanService.trip(change, safeguard, reading.value);
      await releasePlanStore.recordReading(change.tx, id, { error: null, triggeredValue: reading.value });
      return acted ? 'acted' : 'tripped';
    });
    if (outcome) outcomes?.inc({ outcome });
  }

  /**
   * A guardrail's look: the first in a milestone sets the baseline; later ones decide. Harm and a broken split act
   * as a tripped threshold does (pause the plan, or turn the flag off), with the comparison in the event's data.
   */
  async function compare(change: Change, safeguard: SafeguardRow & { comparison: SafeguardComparison }) {
    const plan = safeguard.planId ? await releasePlanStore.plan(change.tx, safeguard.planId) : null;
    if (safeguard.planId && !plan?.activeMilestoneId) {
      await releasePlanStore.recordReading(change.tx, safeguard.id, { error: null });
      return 'held';
    }
    const strategies = (await strategyReadModel.listForFeatures(change.tx, [safeguard.featureName])).filter(
      (strategy) => strategy.environment === safeguard.environment,
    );
    const enabled = (await environmentState.get(change.tx, safeguard.featureName, safeguard.environment))?.enabled;
    const look = await lookAtGuardrail(
      safeguard,
      {
        milestoneId: plan?.activeMilestoneId ?? null,
        enabled: enabled === true,
        strategies,
        now: new Date(),
        settleMs: deps.guardrailSettleMs,
      },
      deps.readArms,
    ).catch((error: unknown) => ({ error: (error as Error).message }));
    if ('error' in look) {
      await releasePlanStore.recordReading(change.tx, safeguard.id, { error: look.error });
      return 'unreadable';
    }
    const { reading } = look;
    await releasePlanStore.recordComparison(change.tx, safeguard.id, look);
    const decision = reading?.decision;
    if (decision !== 'harm' && decision !== 'sample-ratio-mismatch') {
      await releasePlanStore.recordReading(change.tx, safeguard.id, { error: null });
      return 'held';
    }
    const value = decision === 'harm' ? reading!.effect! : reading!.sampleRatioPValue!;
    const acted = await releasePlanService.trip(change, { ...safeguard, lastComparison: reading }, value);
    await releasePlanStore.recordReading(change.tx, safeguard.id, { error: null, triggeredValue: value });
    return acted ? 'acted' : 'tripped';
  }

  // Looked for five times per interval, so a safeguard is read about when it falls due.
  return repeatEvery(
    async (stopping) => {
      for (const id of await releasePlanStore.dueSafeguards(deps.db, intervalMs, BATCH)) {
        if (stopping.aborted) return;
        await evaluate(id);
      }
    },
    Math.max(100, Math.floor(intervalMs / 5)),
    { log: deps.log, what: 'safeguards' },
  );
}
