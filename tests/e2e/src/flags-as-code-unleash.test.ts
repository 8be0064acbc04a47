import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestStack, startUnleashPeer, type TestStack, type UnleashPeer } from '@bunting/test-stack';
import { bunting, projectDir, SHOP } from './flags-as-code.ts';

/**
 * The same files against the real Unleash 8.2 and against Bunting: a team moves between the two with them. Applied
 * to each, each then plans no change, and each exports the same project.
 */
let stack: TestStack;
let peer: UnleashPeer;

beforeAll(async () => {
  [stack, peer] = await Promise.all([startTestStack(), startUnleashPeer()]);
}, 180_000);
afterAll(async () => {
  await stack?.dispose();
  await peer?.stop();
});

it('applies the same files to Unleash 8.2 and to Bunting, and exports the same project from both', async () => {
  const dir = await projectDir(SHOP);
  const exported: unknown[] = [];
  for (const target of [
    { url: peer.url, token: peer.adminToken },
    { url: stack.url, token: stack.adminToken },
  ]) {
    const applied = await bunting(['apply', '--dir', dir], target);
    expect(applied.code, `${target.url}: ${applied.stderr}`).toBe(0);
    const again = await bunting(['plan', '--dir', dir], target);
    expect(again.code, `${target.url}: ${again.stdout}${again.stderr}`).toBe(0);
    const out = await mkdtemp(join(tmpdir(), 'bunting-export-'));
    expect((await bunting(['export', '--project', 'default', '--out', out], target)).code).toBe(0);
    exported.push(parse(await readFile(join(out, 'default.yaml'), 'utf8')));
  }
  expect(exported[1]).toEqual(exported[0]);
  expect((exported[0] as { flags: Record<string, unknown> }).flags).toHaveProperty('checkout-banner');
});
