import { describe, expect, it } from 'vitest';
import { judgeGuardrail, type GuardrailSettings } from './guardrail.ts';

// A small seeded generator, so every run of the suite simulates the same days.
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SETTINGS: GuardrailSettings = { harm: 'increase', alpha: 0.05, minimumUnits: 1000, tuning: 5000 };
const LOOKS = 24 * 60;
const PER_MINUTE = 20;
const RUNS = 1000;

type Day = { errorRate: { control: number; treatment: number }; treatmentKept: number };

/** A day of a 50/50 rollout looked at every minute; where it first stopped, and why. */
function simulateDay(day: Day, random: () => number) {
  let control = { n: 0, sum: 0 };
  let treatment = { n: 0, sum: 0 };
  for (let look = 1; look <= LOOKS; look += 1) {
    for (let unit = 0; unit < PER_MINUTE * 2; unit += 1) {
      const inTreatment = random() < 0.5;
      if (inTreatment && random() >= day.treatmentKept) continue;
      const failed = random() < (inTreatment ? day.errorRate.treatment : day.errorRate.control) ? 1 : 0;
      if (inTreatment) treatment = { n: treatment.n + 1, sum: treatment.sum + failed };
      else control = { n: control.n + 1, sum: control.sum + failed };
    }
    const verdict = judgeGuardrail(
      {
        control: { type: 'proportion', ...control },
        treatment: { type: 'proportion', ...treatment },
        exposures: { control: control.n, treatment: treatment.n },
        treatmentShare: 0.5,
      },
      SETTINGS,
    );
    if (verdict.decision === 'harm' || verdict.decision === 'sample-ratio-mismatch') {
      return { stopped: verdict.decision, units: control.n + treatment.n };
    }
  }
  return { stopped: null, units: control.n + treatment.n };
}

function simulate(day: Day, seed: number) {
  const random = generator(seed);
  return Array.from({ length: RUNS }, () => simulateDay(day, random));
}

const share = (runs: { stopped: string | null }[], why: string) =>
  runs.filter((run) => run.stopped === why).length / runs.length;
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;

// 1,000 simulated days, each looked at every minute (1,440 looks) with 40 users a minute split 50/50.
describe('a guardrail looked at every minute for a day', () => {
  it('with no real effect, signals harm in at most the configured error rate', () => {
    const runs = simulate({ errorRate: { control: 0.1, treatment: 0.1 }, treatmentKept: 1 }, 1);
    const falseHarm = share(runs, 'harm');
    console.info(
      `no effect: harm signalled in ${falseHarm * 100} % of days, split mismatch in ${share(runs, 'sample-ratio-mismatch') * 100} %`,
    );
    expect(falseHarm).toBeLessThanOrEqual(SETTINGS.alpha);
  });

  it('with a real 20 % rise in the error rate, pauses within the day, most runs within 20,000 users', () => {
    const runs = simulate({ errorRate: { control: 0.1, treatment: 0.12 }, treatmentKept: 1 }, 2);
    const caught = runs.filter((run) => run.stopped === 'harm').map((run) => run.units);
    console.info(
      `20 % worse: paused in ${(caught.length / RUNS) * 100} % of days; users at the pause: median ${quantile(caught, 0.5)}, 90th percentile ${quantile(caught, 0.9)}`,
    );
    expect(caught.length / RUNS).toBeGreaterThanOrEqual(0.9);
    expect(quantile(caught, 0.5)).toBeLessThan(20_000);
  });

  it('catches a sample ratio mismatch when the treatment loses 10 % of its exposures', () => {
    const runs = simulate({ errorRate: { control: 0.1, treatment: 0.1 }, treatmentKept: 0.9 }, 3);
    const caught = runs.filter((run) => run.stopped === 'sample-ratio-mismatch').map((run) => run.units);
    console.info(
      `10 % of treatment lost: mismatch reported in ${(caught.length / RUNS) * 100} % of days; users at the stop: median ${quantile(caught, 0.5)}`,
    );
    expect(caught.length / RUNS).toBeGreaterThanOrEqual(0.99);
  });
});
