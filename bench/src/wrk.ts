import { execFile } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LoadResult } from './load.ts';

const run = promisify(execFile);
const WRK = '/usr/bin/wrk';

/** Whether the C load generator is installed (Debian's `wrk` package); its rows are left out when not. */
export const wrkAvailable = () => existsSync(WRK);

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(output: string, percentile: string): number {
  const match = new RegExp(`^\\s+${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(output);
  if (!match) throw new Error(`wrk printed no ${percentile}% latency:\n${output}`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]! * 100) / 100;
}

/**
 * A fixed-time wrk run (one thread, as the issue measured), requests spread over `paths` by a generated Lua script.
 * Same result shape as autocannon's `load`, so the two generators' rows sit side by side.
 */
export async function wrkLoad(options: {
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  rate?: number;
}): Promise<LoadResult> {
  const script = join(tmpdir(), `bunting-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  // With `rate`, each connection waits connections / rate seconds after an answer before its next request (wrk's
  // delay hook): at most that many requests a second, so a server that keeps up answers without a queue.
  const pause =
    options.rate === undefined
      ? []
      : ['delay = function()', `  return ${Math.round((options.connections / options.rate) * 1000)}`, 'end'];
  writeFileSync(
    script,
    [
      `local paths = { ${options.paths.map((path) => JSON.stringify(path)).join(', ')} }`,
      'local next = 0',
      'request = function()',
      '  next = next + 1',
      '  return wrk.format("GET", paths[(next % #paths) + 1])',
      'end',
      ...pause,
      '',
    ].join('\n'),
  );
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await run(
    WRK,
    ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '-s', script, ...headers, options.url],
    { maxBuffer: 1 << 20 },
  ).finally(() => rmSync(script, { force: true }));
  const requests = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN);
  const total = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const bytes = /([\d.]+)(B|KB|MB|GB) read/.exec(stdout);
  const bytesRead = bytes
    ? Number(bytes[1]) * ({ B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as Record<string, number>)[bytes[2]!]!
    : 0;
  return {
    requestsPerSecond: Math.round(requests),
    p50Ms: latencyMs(stdout, '50'),
    p90Ms: latencyMs(stdout, '90'),
    p99Ms: latencyMs(stdout, '99'),
    errors: errors ? errors.slice(1).reduce((sum, value) => sum + Number(value), 0) : 0,
    non2xx,
    bytesPerResponse: total > 0 ? Math.round(bytesRead / total) : 0,
  };
}
