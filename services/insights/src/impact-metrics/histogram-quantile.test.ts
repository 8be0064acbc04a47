import { describe, expect, it } from 'vitest';
import { histogramQuantile } from './histogram-quantile.ts';

describe('histogramQuantile', () => {
  const bounds = [0.1, 0.5, 1, Infinity];

  it('interpolates within the bucket the rank falls in, from 0 below the first bound', () => {
    // 10 observations: 4 up to 0.1, 4 more up to 0.5, 2 more up to 1.
    expect(histogramQuantile(0.5, bounds, [4, 8, 10, 10])).toBeCloseTo(0.1 + 0.4 * (1 / 4));
    expect(histogramQuantile(0.2, bounds, [4, 8, 10, 10])).toBeCloseTo(0.05);
    expect(histogramQuantile(0.95, bounds, [4, 8, 10, 10])).toBeCloseTo(0.5 + 0.5 * (1.5 / 2));
  });

  it('answers the highest finite bound for a rank among the observations above it', () => {
    expect(histogramQuantile(0.99, bounds, [0, 0, 1, 10])).toBe(1);
  });

  it('answers null when nothing was observed', () => {
    expect(histogramQuantile(0.5, bounds, [0, 0, 0, 0])).toBeNull();
  });
});
