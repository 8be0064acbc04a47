import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { createMetrics } from './metrics.ts';

describe('a histogram kept in plain numbers', () => {
  it('is scraped as prom-client writes its own histogram of the same observations', async () => {
    const buckets = [0.001, 0.01, 0.1, 1];
    const metrics = createMetrics({ defaultMetrics: false });
    const plain = metrics.histogram('requests_seconds', 'Requests', ['route', 'status'], buckets);
    const registry = new Registry();
    const reference = new Histogram({
      name: 'requests_seconds',
      help: 'Requests',
      labelNames: ['route', 'status'],
      buckets,
      registers: [registry],
    });
    const observations: [string, string, number][] = [
      ['/a', '200', 0.0004],
      ['/a', '200', 0.001],
      ['/a', '200', 0.05],
      ['/a', '500', 3],
      ['/b', '200', 0.2],
      ['/a', '200', 0.7],
    ];
    const children = new Map<string, ReturnType<typeof plain.child>>();
    for (const [route, status, value] of observations) {
      const key = `${route} ${status}`;
      if (!children.has(key)) children.set(key, plain.child(route, status));
      children.get(key)!.observe(value);
      reference.labels(route, status).observe(value);
    }
    const lines = (text: string) =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .sort();
    expect(lines(await metrics.registry.metrics())).toEqual(lines(await registry.metrics()));
    // Made once by name: asking again gives the same histogram.
    expect(metrics.histogram('requests_seconds', 'Requests', ['route', 'status'], buckets)).toBe(plain);
  });
});
