import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestStack, startUnleashPeer, type TestStack, type UnleashPeer } from '@bunting/test-stack';
import { bunting, projectDir, SHOP } from './flags-as-code.ts';

/**
 * The same files against the real Unleash 8.2 and against Bunting: a team moves between the two with them.
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

it('round-trips: exported from Bunting, applied to an empty Unleash 8.2, exported again gives the same file', async () => {
  const bunting_ = { url: stack.url, token: stack.adminToken };
  const unleash = { url: peer.url, token: peer.adminToken };
  const written = await projectDir(SHOP);
  const applied = await bunting(['apply', '--dir', written], bunting_);
  expect(applied.code, applied.stderr).toBe(0);

  const fromBunting = await mkdtemp(join(tmpdir(), 'bunting-export-'));
  expect((await bunting(['export', '--project', 'default', '--out', fromBunting], bunting_)).code).toBe(0);
  const toUnleash = await bunting(['apply', '--dir', fromBunting], unleash);
  expect(toUnleash.code, toUnleash.stderr).toBe(0);
  const again = await bunting(['plan', '--dir', fromBunting], unleash);
  expect(again.code, `${again.stdout}${again.stderr}`).toBe(0);

  const fromUnleash = await mkdtemp(join(tmpdir(), 'bunting-export-'));
  expect((await bunting(['export', '--project', 'default', '--out', fromUnleash], unleash)).code).toBe(0);
  const text = await readFile(join(fromBunting, 'default.yaml'), 'utf8');
  expect(await readFile(join(fromUnleash, 'default.yaml'), 'utf8')).toBe(text);
  expect(Object.keys(parse(text).flags)).toEqual(['checkout-banner', 'checkout-v2']);
});
