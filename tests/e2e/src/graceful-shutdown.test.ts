import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, httpClient, isolate, type Isolation } from '@bunting/testing';

let isolation: Isolation;
beforeAll(async () => {
  isolation = await isolate();
});
afterAll(() => isolation?.cleanup());

it('finishes in-flight requests and exits cleanly on SIGTERM', async () => {
  const port = await freePort();
  const token = '*:*.shutdown-test';
  const launcher = fileURLToPath(new URL('../../../launcher/src/main.ts', import.meta.url));
  const child = spawn(process.execPath, [launcher], {
    env: { ...process.env, ...isolation.env, PORT: String(port), INIT_ADMIN_API_TOKENS: token },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const admin = httpClient(`http://127.0.0.1:${port}`, { authorization: token });
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if ((await admin.get('/ready').catch(() => ({ status: 0 }))).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // A steady stream of writes, with the signal arriving in the middle of it: some are done, some in flight,
  // some arrive while closing (503) or after the port closed (refused).
  const inFlight: Promise<Awaited<ReturnType<typeof admin.post>>>[] = [];
  for (let index = 0; index < 40; index += 1) {
    const request = admin.post('/api/admin/projects/default/features', { name: `last-${index}` });
    request.catch(() => undefined); // refused after the port closed: looked at below, with the others
    inFlight.push(request);
    if (index === 20) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const replies = await Promise.allSettled(inFlight);
  expect(await exited).toBe(0);
  // Requests the server had accepted complete; none is cut off half-way.
  for (const reply of replies) {
    if (reply.status === 'fulfilled') expect([201, 503]).toContain(reply.value.status);
  }
  expect(replies.some((reply) => reply.status === 'fulfilled' && reply.value.status === 201)).toBe(true);
}, 40_000);
