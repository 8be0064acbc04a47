import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localAdminToken } from './local-admin-token.ts';

const dir = mkdtempSync(join(tmpdir(), 'bunting-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the local admin token', () => {
  it('is made once and kept, so every start prints the same', () => {
    const file = join(dir, 'kept', 'admin-token');
    const first = localAdminToken(file);
    expect(first).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(localAdminToken(file)).toBe(first);
  });

  it('is still made where it cannot be kept, instead of stopping the start', () => {
    // A path under a file cannot be created by anyone, root included (a container's read-only or foreign directory
    // refuses the same way).
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    expect(localAdminToken(join(file, 'sub', 'admin-token'))).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
  });
});
