import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Made by the tests' global setup (npm run build:edge), as the deploy builds it.
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const built = () =>
  [
    readFileSync(`${dist}edge.mjs`, 'utf8'),
    ...readdirSync(`${dist}chunks`).map((name) => readFileSync(`${dist}chunks/${name}`, 'utf8')),
  ].join('\n');

describe('the built SDK edge', () => {
  it("holds none of the other services' code, and refuses their targets", () => {
    const text = built();
    for (const service of ['admin-api', 'event-log', 'signals', 'insights'])
      expect(text, service).not.toMatch(new RegExp(`^// services/${service}/`, 'm'));
    const run = spawnSync(process.execPath, [`${dist}edge.mjs`, '--target=admin-api'], {
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'error' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('runs the SDK edge only');
  });

  it('keeps the calls on zod made for their effect, though schema calls count as pure', () => {
    // registerExamples adds to zod's registry and uses no result: written on `z`, the build dropped it.
    expect(built()).toMatch(/registry\.add\(schema/);
  });
});
