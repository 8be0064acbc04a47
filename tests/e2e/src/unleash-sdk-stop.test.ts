import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { initialize } from 'unleash-client';
import { stopUnleashSdk } from '@bunting/test-stack';

/**
 * The real Node SDK, stopped with a poll in flight: the poll's failure still reaches the SDK's repository after
 * destroy(). Without the listener stopUnleashSdk leaves there, that emit throws as an unhandled rejection and fails
 * the whole run (as it did in CI once, from release-plans.test.ts).
 */
const held: ServerResponse[] = [];
let polled: () => void;
const firstPoll = new Promise<void>((resolve) => (polled = resolve));
const server = createServer((_request, response) => {
  held.push(response);
  polled();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('takes the failure of a poll that ends after the SDK was destroyed', async () => {
  const sdk = initialize({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`,
    appName: 'stopped-with-a-poll-in-flight',
    customHeaders: { Authorization: 'token' },
    refreshInterval: 60_000,
    disableMetrics: true,
  });
  sdk.on('error', () => undefined);
  await firstPoll;

  stopUnleashSdk(sdk);
  // The name the helper relies on: were it renamed in an upgrade, the helper would silently do nothing.
  const repository = (sdk as unknown as { repository: NodeJS.EventEmitter }).repository;
  expect(repository.listenerCount('error')).toBe(1);

  // The hazard is real: the poll's failure (an answer that is not JSON) is emitted on the repository after destroy().
  const late = new Promise<unknown>((resolve) => repository.once('error', resolve));
  held[0]!.writeHead(200, { 'content-type': 'application/json' }).end('not json');
  expect(await late).toBeInstanceOf(Error);
});
