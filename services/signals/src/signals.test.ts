import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const frontendToken = 'default:development.signals-frontend';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_FRONTEND_API_TOKENS: frontendToken } });
});
afterAll(() => stack?.dispose());

function sender(token?: string): HttpClient {
  return httpClient(stack.url, token ? { authorization: `Bearer ${token}` } : {});
}

describe('signal endpoints (admin side)', () => {
  it('creates endpoints and tokens up to the limits of 5, answering the 6th with the error shape', async () => {
    for (let index = 1; index <= 5; index += 1) {
      expect((await stack.admin.post('/api/admin/signal-endpoints', { name: `limit-${index}` })).status).toBe(201);
    }
    const sixth = await stack.admin.post('/api/admin/signal-endpoints', { name: 'limit-6' });
    expect(sixth.status).toBe(409);
    expect(sixth.body).toMatchObject({ name: 'ExceedsLimitError' });
    expect(typeof sixth.body.id).toBe('string');
    const endpoints = (await stack.admin.get('/api/admin/signal-endpoints')).body.signalEndpoints;
    expect(endpoints).toHaveLength(5);
    const first = endpoints[0];
    for (let index = 1; index <= 5; index += 1) {
      const token = await stack.admin.post(`/api/admin/signal-endpoints/${first.id}/tokens`, { name: `t${index}` });
      expect(token.status).toBe(201);
      expect(token.body.token).toMatch(/^[0-9a-f]{56}$/);
    }
    expect((await stack.admin.post(`/api/admin/signal-endpoints/${first.id}/tokens`, { name: 't6' })).status).toBe(409);
    const tokens = await stack.admin.get(`/api/admin/signal-endpoints/${first.id}/tokens`);
    expect(tokens.body.signalEndpointTokens).toHaveLength(5);
    expect(JSON.stringify(tokens.body)).not.toMatch(/[0-9a-f]{56}/);
    for (const endpoint of endpoints.slice(1))
      expect((await stack.admin.delete(`/api/admin/signal-endpoints/${endpoint.id}`)).status).toBe(200);
    expect((await stack.admin.delete(`/api/admin/signal-endpoints/${first.id}`)).status).toBe(200);
  });

  it('refuses bad names, duplicates and callers without ADMIN', async () => {
    expect((await stack.admin.post('/api/admin/signal-endpoints', { name: 'not url safe!' })).status).toBe(400);
    expect((await stack.admin.post('/api/admin/signal-endpoints', { name: 'dup' })).status).toBe(201);
    expect((await stack.admin.post('/api/admin/signal-endpoints', { name: 'dup' })).status).toBe(409);
    await stack.admin.post('/api/admin/user-admin', {
      username: 'signal-editor',
      rootRole: 2,
      password: 'editor-password',
    });
    const login = await httpClient(stack.url).post('/auth/simple/login', {
      username: 'signal-editor',
      password: 'editor-password',
    });
    const editor = httpClient(stack.url, { cookie: login.headers.get('set-cookie')!.split(';')[0]! });
    const refused = await editor.post('/api/admin/signal-endpoints', { name: 'by-editor' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('ADMIN');
    expect((await stack.anonymous.get('/api/admin/signal-endpoints')).status).toBe(401);
    const types = await eventually(async () => {
      const reply = await stack.admin.post('/api/admin/events/search', { query: 'signal-endpoint' });
      const found = (reply.body.events as { type: string }[]).map((e) => e.type);
      return found.includes('signal-endpoint-token-created') && found.includes('signal-endpoint-deleted') && found;
    });
    expect(types).toEqual(
      expect.arrayContaining(['signal-endpoint-created', 'signal-endpoint-token-created', 'signal-endpoint-deleted']),
    );
  });
});

/** Sends until the endpoint's one-second window has room; a refused (429) signal stores nothing, so sending again is harmless. */
function whenAllowed<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  return eventually(
    async () => {
      const reply = await send();
      return reply.status !== 429 && reply;
    },
    { intervalMs: 100 },
  );
}

describe('POST /api/signal-endpoint/:endpointName', () => {
  let endpointId: number;
  let secret: string;

  beforeAll(async () => {
    const endpoint = await stack.admin.post('/api/admin/signal-endpoints', { name: 'alerts' });
    endpointId = endpoint.body.id;
    secret = (await stack.admin.post(`/api/admin/signal-endpoints/${endpointId}/tokens`, { name: 'grafana' })).body
      .token;
  });

  async function storedSignals() {
    return (await stack.admin.get(`/api/admin/signal-endpoints/${endpointId}/signals`)).body.signalEndpointSignals as {
      payload: unknown;
      tokenName: string;
    }[];
  }

  it('accepts any JSON or no body from a token of the endpoint and stores it with its source token', async () => {
    const accepted = await whenAllowed(() =>
      sender(secret).post('/api/signal-endpoint/alerts', { type: 'alert', data: { severity: 3 } }),
    );
    expect(accepted.status).toBe(202);
    expect((await whenAllowed(() => sender(secret).post('/api/signal-endpoint/alerts'))).status).toBe(202);
    expect((await whenAllowed(() => sender(secret).post('/api/signal-endpoint/alerts', [1, 2, 3]))).status).toBe(202);
    const signals = await storedSignals();
    expect(signals.map((signal) => signal.payload)).toEqual([
      [1, 2, 3],
      null,
      { type: 'alert', data: { severity: 3 } },
    ]);
    expect(signals.every((signal) => signal.tokenName === 'grafana')).toBe(true);
  });

  it('refuses unknown endpoints (404), missing or foreign tokens (401), non-JSON (400) and over 100kb (413), storing nothing', async () => {
    // Each of these is refused before the rate limit is consulted, so none waits for the window.
    const before = (await storedSignals()).length;
    const unknown = await sender(secret).post('/api/signal-endpoint/nope', { a: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
    expect((await sender().post('/api/signal-endpoint/alerts', { a: 1 })).status).toBe(401);
    expect((await sender('wrong').post('/api/signal-endpoint/alerts', { a: 1 })).status).toBe(401);
    const notJson = await sender(secret).post('/api/signal-endpoint/alerts', 'this is not json', {
      'content-type': 'text/plain',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.name).toBe('ValidationError');
    const big = await sender(secret).post('/api/signal-endpoint/alerts', { blob: 'x'.repeat(101 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.name).toBe('PayloadTooLargeError');
    expect((await storedSignals()).length).toBe(before);
  });

  it('accepts one request per second per endpoint; the excess gets 429 with Retry-After and is not stored', async () => {
    const before = (await storedSignals()).length;
    // A burst sent within the window of the previous test's signal has no room at all; the next window takes one.
    const { replies } = await whenAllowed(async () => {
      const sent = await Promise.all(
        Array.from({ length: 5 }, (_, index) => sender(secret).post('/api/signal-endpoint/alerts', { burst: index })),
      );
      return { status: sent.some((reply) => reply.status === 202) ? 202 : 429, replies: sent };
    });
    expect(replies.filter((reply) => reply.status === 202)).toHaveLength(1);
    const limited = replies.filter((reply) => reply.status === 429);
    expect(limited).toHaveLength(4);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.body.name).toBe('RateLimitError');
    expect((await storedSignals()).length).toBe(before + 1);
  });
});

describe('action sets', () => {
  it('a matching signal toggles a flag through admin-api as the service account; the change shows in the frontend API and the event log', async () => {
    const { admin } = stack;
    await admin.post('/api/admin/projects/default/features', { name: 'maintenance-banner' });
    const account = await admin.post('/api/admin/service-account', {
      username: 'incident-bot',
      name: 'Incident bot',
      rootRole: 2,
    });
    const endpoint = await admin.post('/api/admin/signal-endpoints', { name: 'incidents' });
    const secret = (await admin.post(`/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, { name: 'pager' })).body
      .token;
    const body = {
      name: 'Show the banner during incidents',
      actorId: account.body.id,
      match: {
        source: 'signal-endpoint',
        sourceId: endpoint.body.id,
        payload: {
          status: { operator: 'IN', values: ['firing'] },
          'data.severity': { operator: 'NUM_GTE', value: '3' },
        },
      },
      actions: [
        {
          action: 'ENABLE_FEATURE',
          executionParams: { project: 'default', environment: 'development', featureName: 'maintenance-banner' },
        },
      ],
    };
    expect((await admin.post('/api/admin/projects/default/actions', { ...body, actorId: 99999 })).status).toBe(400);
    expect(
      (await admin.post('/api/admin/projects/default/actions', { ...body, match: { ...body.match, sourceId: 99999 } }))
        .status,
    ).toBe(400);
    const created = await admin.post('/api/admin/projects/default/actions', body);
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain('user:');
    expect((await admin.get('/api/admin/projects/default/actions')).body.actions).toHaveLength(1);

    const frontend = httpClient(stack.url, { authorization: frontendToken });
    expect(
      (await sender(secret).post('/api/signal-endpoint/incidents', { status: 'firing', data: { severity: 1 } })).status,
    ).toBe(202);
    // The runner takes an endpoint's signals in order: once the matching one below has acted, the one above was
    // judged too, and the single run recorded shows it did not match.
    expect(
      (
        await whenAllowed(() =>
          sender(secret).post('/api/signal-endpoint/incidents', { status: 'firing', data: { severity: 4 } }),
        )
      ).status,
    ).toBe(202);
    await eventually(
      async () =>
        (await frontend.get('/api/frontend')).body.toggles.some(
          (t: { name: string }) => t.name === 'maintenance-banner',
        ),
      { timeoutMs: 15_000 },
    );
    const enabled = await eventually(
      async () =>
        (
          await admin.post('/api/admin/events/search', {
            type: 'feature-environment-enabled',
            feature: 'maintenance-banner',
          })
        ).body.events[0],
    );
    expect(enabled).toMatchObject({
      createdBy: 'incident-bot',
      createdByUserId: account.body.id,
      environment: 'development',
    });
    const runs = await admin.get(`/api/admin/projects/default/actions/${created.body.id}/events`);
    expect(runs.body.actionSetEvents).toHaveLength(1);
    expect(runs.body.actionSetEvents[0]).toMatchObject({
      state: 'success',
      actions: [{ action: 'ENABLE_FEATURE', state: 'success' }],
    });
    const types = (await admin.post('/api/admin/events/search', { type: 'actions-created' })).body.events;
    expect(types).toHaveLength(1);
  }, 30_000);
});
