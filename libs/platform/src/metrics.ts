import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One process's Prometheus metrics: every service it mounts adds to the same registry, so the all-in-one
 * process serves them all at /internal-backstage/prometheus. Metrics are made once by name (a second service asking
 * for the same one gets it), and label values stay bounded: route patterns, environments, consumer names, outcomes;
 * never flag names, tokens or user ids.
 */
export type Metrics = {
  registry: Registry;
  counter: (name: string, help: string, labelNames?: readonly string[]) => Counter<string>;
  histogram: (name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) => Histogram<string>;
  /**
   * A gauge read when scraped: each source gives its current values (a source that fails or takes over a second
   * is left out of that scrape rather than holding it up).
   */
  sampledGauge: (name: string, help: string, labelNames: readonly string[]) => { addSource: (source: GaugeSource) => () => void };
};

export type GaugeSource = () => Promise<readonly { labels: Record<string, string>; value: number }[]> | readonly { labels: Record<string, string>; value: number }[];

const SOURCE_TIMEOUT_MS = 1000;

function withTimeout<T>(promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), SOURCE_TIMEOUT_MS); }),
  ]);
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'bunting_' });
  const sources = new Map<string, Set<GaugeSource>>();
  const existing = <T>(name: string) => registry.getSingleMetric(name) as T | undefined;
  return {
    registry,
    counter: (name, help, labelNames = []) => existing<Counter<string>>(name) ?? new Counter({ name, help, labelNames: [...labelNames], registers: [registry] }),
    histogram: (name, help, labelNames, buckets) =>
      existing<Histogram<string>>(name) ?? new Histogram({ name, help, labelNames: [...labelNames], buckets: [...buckets], registers: [registry] }),
    sampledGauge(name, help, labelNames) {
      if (!sources.has(name)) {
        const own = new Set<GaugeSource>();
        sources.set(name, own);
        new Gauge({
          name, help, labelNames: [...labelNames], registers: [registry],
          async collect() {
            this.reset();
            const readings = await Promise.all([...own].map((source) => withTimeout(Promise.resolve().then(source)).catch(() => undefined)));
            for (const values of readings) for (const { labels, value } of values ?? []) this.set(labels, value);
          },
        });
      }
      const own = sources.get(name)!;
      return {
        addSource: (source) => {
          own.add(source);
          return () => own.delete(source);
        },
      };
    },
  };
}

/** Buckets for request durations, in seconds: the SDK edge answers in about a millisecond, admin writes in tens. */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
