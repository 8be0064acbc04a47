import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTargets } from './services.ts';

describe('the edge target', () => {
  it('runs alone and is not part of "all"', () => {
    expect(parseTargets('edge')).toEqual(['edge']);
    expect(parseTargets('all')).not.toContain('edge');
    expect(() => parseTargets('edge,frontend-api')).toThrow(/runs alone/);
  });

  it('stops at once with a clear message when UPSTREAM_URL is missing', () => {
    const main = fileURLToPath(new URL('./main.ts', import.meta.url));
    const { UPSTREAM_URL: _ignored, ...env } = process.env;
    const run = spawnSync(process.execPath, [main, '--target=edge'], {
      env: { ...env, PORT: '0', LOG_LEVEL: 'error' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('The edge needs UPSTREAM_URL');
  });
});
