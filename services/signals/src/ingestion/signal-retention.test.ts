import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { SIGNALS_KEPT_PER_ENDPOINT: '3', SIGNAL_ENDPOINT_RATE_LIMIT: '100' } });
});
afterAll(() => stack?.dispose());

async function endpointWithToken(name: string) {
  const { body: endpoint } = await stack.admin.post('/api/admin/signal-endpoints', { name });
  const { body: token } = await stack.admin.post(`/api/admin/signal-endpoints/${endpoint.id}/tokens`, {
    name: 'sender',
  });
  return {
    id: endpoint.id as number,
    send: (body: unknown) =>
      httpClient(stack.url, { authorization: `Bearer ${token.token}` }).post(`/api/signal-endpoint/${name}`, body),
  };
}

const kept = async (id: number) =>
  (
    (await stack.admin.get(`/api/admin/signal-endpoints/${id}/signals`)).body.signalEndpointSignals as {
      payload: { n: number };
    }[]
  ).map((signal) => signal.payload.n);

it('keeps the newest signals of each endpoint up to SIGNALS_KEPT_PER_ENDPOINT, each endpoint on its own', async () => {
  const busy = await endpointWithToken('busy');
  const quiet = await endpointWithToken('quiet');
  expect((await quiet.send({ n: 1 })).status).toBe(202);
  for (let n = 1; n <= 7; n += 1) expect((await busy.send({ n })).status).toBe(202);
  expect(await kept(busy.id)).toEqual([7, 6, 5]);
  expect(await kept(quiet.id)).toEqual([1]);
});
