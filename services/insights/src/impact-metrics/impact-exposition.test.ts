import { describe, expect, it } from 'vitest';
import { impactExposition } from './impact-exposition.ts';

/** Stored series as the insights service keeps them: Bunting's name, the labels it adds, totals since each began. */
const series = (metric: string, labels: Record<string, string>, total: number, extra: object = {}) => ({
  metric,
  type: metric.split('_')[1] as 'counter' | 'gauge' | 'histogram',
  help: '',
  labels,
  bounds: null,
  total,
  totalSum: null,
  totalBuckets: null,
  ...extra,
});

describe('the impact metrics exposition', () => {
  it("writes each metric under the SDK's name with origin and metric_type, as Unleash 8.2's own tests expect", () => {
    const text = impactExposition(
      [
        series(
          'unleash_counter_labeled_counter',
          { foo: 'bar', origin: 'sdk', appName: 'impact-metrics-app', environment: 'development' },
          15,
          { help: 'with labels' },
        ),
        series(
          'unleash_histogram_response_time',
          { foo: 'bar', origin: 'sdk', appName: 'impact-metrics-app', environment: 'development' },
          15,
          { help: 'Response time histogram', bounds: [1, Infinity], totalSum: 11.7, totalBuckets: [10, 15] },
        ),
      ],
      [],
    );
    // Unleash 8.2's impact-metrics.e2e.test expectations, line for line.
    expect(text).toContain('# HELP labeled_counter with labels\n# TYPE labeled_counter counter\n');
    expect(text).toMatch(/^labeled_counter\{origin="sdk",metric_type="counter",foo="bar"\} 15$/m);
    expect(text).toContain('# TYPE response_time histogram');
    expect(text).toContain('response_time_bucket{foo="bar",metric_type="histogram",origin="sdk",le="1"} 10');
    expect(text).toContain('response_time_bucket{foo="bar",metric_type="histogram",origin="sdk",le="+Inf"} 15');
    expect(text).toContain('response_time_sum{foo="bar",metric_type="histogram",origin="sdk"} 11.7');
    expect(text).toContain('response_time_count{foo="bar",metric_type="histogram",origin="sdk"} 15');
    expect(text).not.toMatch(/appName|environment|unleash_/);
  });

  it('adds up series that differ only in app or environment; a gauge keeps the latest', () => {
    const text = impactExposition(
      [
        series('unleash_counter_hits', { origin: 'sdk', appName: 'a', environment: 'development' }, 2),
        series('unleash_counter_hits', { origin: 'sdk', appName: 'b', environment: 'production' }, 3),
        series('unleash_counter_hits', { origin: 'edge', appName: 'b', environment: 'production' }, 4),
        series('unleash_gauge_load', { origin: 'sdk', appName: 'a', environment: 'development' }, 0.5),
        series('unleash_gauge_load', { origin: 'sdk', appName: 'b', environment: 'development' }, 0.7),
      ],
      [{ name: 'unleash_counter_waiting', type: 'counter', help: 'Registered, not sent yet' }],
    );
    expect(text).toMatch(/^hits\{origin="sdk",metric_type="counter"\} 5$/m);
    expect(text).toMatch(/^hits\{origin="edge",metric_type="counter"\} 4$/m);
    expect(text).toMatch(/^load\{origin="sdk",metric_type="gauge"\} 0.7$/m);
    expect(text).toContain('# HELP waiting Registered, not sent yet\n# TYPE waiting counter\nwaiting 0\n');
    // One HELP and TYPE a name, as Prometheus requires.
    expect(text.match(/^# TYPE hits /gm)).toHaveLength(1);
  });
});
