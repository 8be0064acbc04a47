import type { ImpactRange } from '@bunting/contracts';
import type { ImpactResolution } from './impact-store.ts';

/** What a range is drawn from: its span, the step between points (as Unleash names it) and the table read. */
export type ImpactWindow = {
  range: ImpactRange;
  spanMs: number;
  stepMs: number;
  step: '1m' | '15m' | '3h' | '1d';
  resolution: ImpactResolution;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const IMPACT_WINDOWS: Record<ImpactRange, ImpactWindow> = {
  hour: { range: 'hour', spanMs: HOUR, stepMs: MINUTE, step: '1m', resolution: 60 },
  day: { range: 'day', spanMs: DAY, stepMs: 15 * MINUTE, step: '15m', resolution: 900 },
  week: { range: 'week', spanMs: 7 * DAY, stepMs: 3 * HOUR, step: '3h', resolution: 3600 },
  month: { range: 'month', spanMs: 30 * DAY, stepMs: DAY, step: '1d', resolution: 3600 },
};

/** The steps a range covers up to `now`: the first step's start, and each step's start, the current one last. */
export function stepsOf(window: ImpactWindow, now: number): { start: number; end: number; steps: number[] } {
  const end = Math.floor(now / window.stepMs) * window.stepMs;
  const count = Math.round(window.spanMs / window.stepMs);
  const steps = Array.from({ length: count }, (_, index) => end - (count - 1 - index) * window.stepMs);
  return { start: steps[0]!, end, steps };
}
