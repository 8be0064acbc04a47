import { httpClient } from '@bunting/testing';

/**
 * A process's Prometheus exposition as samples: each series as exposed (its name with its labels, as
 * `bunting_snapshot_installs_total{environment="development",how="delta"}`) and its value.
 */
export async function metricSamples(url: string): Promise<Map<string, number>> {
  const text = (await httpClient(url).get('/internal-backstage/prometheus')).text;
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

/** The sum of every series of one metric (all its labels). */
export function metricSum(samples: ReadonlyMap<string, number>, name: string): number {
  let sum = 0;
  for (const [series, value] of samples) if (series === name || series.startsWith(`${name}{`)) sum += value;
  return sum;
}
