import { afterAll, expect, it } from 'vitest';
import { startStack, type Stack } from '@bunting/launcher';
import { eventually, httpClient } from '@bunting/test-stack';
import { isolate } from '@bunting/testing';

/**
 * A database restored from a backup beside new NATS volumes (the deploy test's restore): the database says every
 * environment's hydration was written, the configuration feed's stream holds nothing. admin-api writes them again,
 * and the SDK edge serves what the database holds.
 */
const isolation = await isolate();
const adminToken = '*:*.feed-restore-admin';
const frontendToken = '*:development.feed-restore-frontend';
const env = { ...isolation.env, INIT_ADMIN_API_TOKENS: adminToken, INIT_FRONTEND_API_TOKENS: frontendToken };
let stack: Stack | undefined;

afterAll(async () => {
  await stack?.close();
  await isolation.cleanup();
});

it('writes the hydrations again when the stream lost them, and the edge serves the flags', async () => {
  stack = await startStack({ env });
  const admin = httpClient(stack.url, { authorization: adminToken });
  const base = '/api/admin/projects/default/features';
  expect((await admin.post(base, { name: 'kept-through-restore' })).status).toBe(201);
  await admin.post(`${base}/kept-through-restore/environments/development/strategies`, { name: 'default' });
  await admin.post(`${base}/kept-through-restore/environments/development/on`);
  const served = async (url: string) => {
    const answer = await httpClient(url, { authorization: frontendToken }).get('/api/frontend');
    return (
      answer.status === 200 &&
      answer.body.toggles.some((toggle: { name: string }) => toggle.name === 'kept-through-restore')
    );
  };
  await eventually(() => served(stack!.url));

  // The stream goes, the database stays: what a restore into new NATS volumes leaves.
  const { messaging } = stack.infrastructure;
  await messaging!.jsm.streams.delete(messaging!.names.feedStream);
  await stack.close();
  stack = await startStack({ env });
  await eventually(() => served(stack!.url), { timeoutMs: 20_000 });
});
