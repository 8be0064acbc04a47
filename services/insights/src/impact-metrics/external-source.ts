import { z } from 'zod';
import {
  parseImpactSeriesName,
  type ExternalImpactSource,
  type ImpactAggregation,
  type ImpactLabelSelectors,
  type ImpactMetricsData,
  type ImpactRange,
} from '@bunting/contracts';
import { DomainError, ValidationError } from '@bunting/platform';
import { IMPACT_WINDOWS } from './impact-windows.ts';

/** How long a question to the external source may take before the query answers 503. */
export const EXTERNAL_TIMEOUT_MS = 5000;

/** Infrastructure metrics a Prometheus holds that are no application's impact: left out of the catalogue. */
const INFRASTRUCTURE =
  /^(go_|process_|prometheus_|promhttp_|scrape_|up$|kube_|node_|net_conntrack_|grpc_|http_|bunting_|nodejs_)/;
const MAX_LABELS = 10;

const PrometheusAnswer = z.object({ status: z.string(), data: z.unknown().optional(), error: z.string().optional() });
const Vector = z.object({
  resultType: z.literal('vector'),
  result: z.array(z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) })),
});
const Matrix = z.object({
  resultType: z.literal('matrix'),
  result: z.array(
    z.object({ metric: z.record(z.string(), z.string()), values: z.array(z.tuple([z.number(), z.string()])) }),
  ),
});

/** The address with its credentials taken out into a basic Authorization header. */
function connection(url: string): { base: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  const headers: Record<string, string> = {};
  if (parsed.username || parsed.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`;
    parsed.username = '';
    parsed.password = '';
  }
  return { base: parsed.href.replace(/\/$/, ''), headers };
}

const unavailable = (why: string) =>
  new DomainError(503, 'ServiceUnavailableError', `The external impact metrics source cannot be read: ${why}`, {
    headers: { 'retry-after': '30' },
  });

/** One call to the source's HTTP API; an unreachable, slow or failing source is a 503 for this query alone. */
async function ask(
  url: string,
  path: string,
  params: Record<string, string | string[]>,
  timeoutMs: number,
): Promise<unknown> {
  const { base, headers } = connection(url);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const one of [value].flat()) query.append(name, one);
  let response: Response;
  try {
    response = await fetch(`${base}${path}?${query}`, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw unavailable(
      (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message,
    );
  }
  const body = PrometheusAnswer.safeParse(await response.json().catch(() => null));
  if (!response.ok || !body.success || body.data.status !== 'success') {
    throw unavailable(body.success && body.data.error ? body.data.error : `status ${response.status}`);
  }
  return body.data.data;
}

/** A label value inside a PromQL regex in double quotes. */
export const quoted = (value: string) =>
  value
    .replace(/[\\.*+?^${}()|[\]]/g, '\\$&')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"');

function selector(name: string, labels: ImpactLabelSelectors): string {
  const matchers = Object.entries(labels)
    .filter(([, values]) => values.length > 0)
    .map(([label, values]) => `${label}=~"${values.map(quoted).join('|')}"`);
  return `${name}{${matchers.join(',')}}`;
}

/** The PromQL a query is, by the metric's type (from Unleash's `unleash_<type>_` prefix; otherwise a gauge). */
export function promQl(
  metricName: string,
  range: ImpactRange,
  aggregation: ImpactAggregation,
  labels: ImpactLabelSelectors,
): string {
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(metricName))
    throw ValidationError.field('metricName', 'is not a Prometheus metric name');
  for (const label of Object.keys(labels))
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(label))
      throw ValidationError.field('labels', `${label} is not a Prometheus label name`);
  const type = parseImpactSeriesName(metricName)?.type ?? 'gauge';
  const window = `${IMPACT_WINDOWS[range].stepMs / 1000}s`;
  const of = (name: string) => selector(name, labels);
  if (type === 'counter') {
    if (aggregation === 'rps') return `sum(rate(${of(metricName)}[${window}]))`;
    if (aggregation === 'avg') return `avg(increase(${of(metricName)}[${window}]))`;
    return `sum(increase(${of(metricName)}[${window}]))`;
  }
  if (type === 'histogram') {
    const quantile = { p50: 0.5, p95: 0.95, p99: 0.99 }[aggregation as 'p50'];
    if (quantile !== undefined)
      return `histogram_quantile(${quantile}, sum by (le) (rate(${of(`${metricName}_bucket`)}[${window}])))`;
    if (aggregation === 'rps') return `sum(rate(${of(`${metricName}_count`)}[${window}]))`;
    if (aggregation === 'sum') return `sum(increase(${of(`${metricName}_sum`)}[${window}]))`;
    if (aggregation === 'avg')
      return `sum(rate(${of(`${metricName}_sum`)}[${window}])) / sum(rate(${of(`${metricName}_count`)}[${window}]))`;
    return `sum(increase(${of(`${metricName}_count`)}[${window}]))`;
  }
  if (aggregation === 'sum') return `sum(${of(metricName)})`;
  if (aggregation === 'count') return `count(${of(metricName)})`;
  return `avg(${of(metricName)})`;
}

/** An external Prometheus-compatible source, read through its HTTP API. */
export function externalSource(source: ExternalImpactSource, timeoutMs = EXTERNAL_TIMEOUT_MS) {
  const url = source.enabled ? source.url : undefined;
  const need = () => {
    if (!url)
      throw unavailable(
        'no external source is configured (EXTERNAL_PROMETHEUS_IMPACT_METRICS_API, or /api/admin/impact-metrics/external-source)',
      );
    return url;
  };
  return {
    configured: url !== undefined,

    /** The metric names the source has, infrastructure ones left out. */
    async metricNames(): Promise<string[]> {
      const names = z
        .array(z.string())
        .catch([])
        .parse(await ask(need(), '/api/v1/label/__name__/values', {}, timeoutMs));
      return names.filter((name) => !INFRASTRUCTURE.test(name)).sort();
    },

    /** The values of a metric's labels (at most 10 labels), as a filter offers them. */
    async labels(metricName: string): Promise<Record<string, string[]>> {
      const names = z
        .array(z.string())
        .catch([])
        .parse(await ask(need(), '/api/v1/labels', { 'match[]': metricName }, timeoutMs))
        .filter((name) => name !== '__name__')
        .slice(0, MAX_LABELS);
      const values = await Promise.all(
        names.map(async (name) =>
          z
            .array(z.string())
            .catch([])
            .parse(
              await ask(
                need(),
                `/api/v1/label/${encodeURIComponent(name)}/values`,
                { 'match[]': metricName },
                timeoutMs,
              ),
            ),
        ),
      );
      return Object.fromEntries(names.map((name, index) => [name, values[index]!.slice(0, 100)]));
    },

    /** The query's value now (a safeguard's reading): the first series of the instant query, null when none. */
    async valueNow(
      query: {
        metricName: string;
        timeRange: ImpactRange;
        aggregationMode: ImpactAggregation;
        labelSelectors: ImpactLabelSelectors;
      },
      now = Date.now(),
    ): Promise<number | null> {
      const promql = promQl(query.metricName, query.timeRange, query.aggregationMode, query.labelSelectors);
      const data = Vector.safeParse(
        await ask(need(), '/api/v1/query', { query: promql, time: String(now / 1000) }, timeoutMs),
      );
      const value = data.success ? Number(data.data.result[0]?.value[1]) : Number.NaN;
      return Number.isFinite(value) ? value : null;
    },

    /** An instant query's series with their values (a guardrail's sides), at `now`. */
    async vector(promql: string, now = Date.now()): Promise<{ labels: Record<string, string>; value: number }[]> {
      const data = Vector.safeParse(
        await ask(need(), '/api/v1/query', { query: promql, time: String(now / 1000) }, timeoutMs),
      );
      if (!data.success) return [];
      return data.data.result
        .map((result) => ({ labels: result.metric, value: Number(result.value[1]) }))
        .filter((one) => Number.isFinite(one.value));
    },

    /** The query as one line over the range, in the answer's shape (points at the steps' starts). */
    async query(
      query: {
        metricName: string;
        range: ImpactRange;
        aggregationMode: ImpactAggregation;
        labels: ImpactLabelSelectors;
        withLabels: boolean;
      },
      now = Date.now(),
    ): Promise<ImpactMetricsData> {
      const window = IMPACT_WINDOWS[query.range];
      // Evaluated up to now (not the step's start, which may come before the source's first scrape).
      const end = Math.floor(now / 1000) * 1000;
      const start = end - (Math.round(window.spanMs / window.stepMs) - 1) * window.stepMs;
      const promql = promQl(query.metricName, query.range, query.aggregationMode, query.labels);
      const data = Matrix.safeParse(
        await ask(
          need(),
          '/api/v1/query_range',
          {
            query: promql,
            start: String(start / 1000),
            end: String(end / 1000),
            step: String(window.stepMs / 1000),
          },
          timeoutMs,
        ),
      );
      const series = data.success
        ? data.data.result.map((result) => ({
            metric: { __name__: query.metricName, ...result.metric },
            data: result.values,
          }))
        : [];
      return {
        start: String(start / 1000),
        end: String(end / 1000),
        step: window.step,
        series,
        labels: query.withLabels ? await this.labels(query.metricName) : {},
        debug: { query: promql, metricType: parseImpactSeriesName(query.metricName)?.type ?? 'unknown' },
      };
    },
  };
}
