import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnleashClient } from 'unleash-proxy-client';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

/**
 * /api/frontend's ETag: a browser SDK polling with the same context gets a 304 until something it sees changes, and
 * an ETag never lets one context, route or token reuse another's answer.
 */
let stack: TestStack;
let frontend: HttpClient;
const token = 'default:development.revalidate-frontend';
const otherProjectToken = 'side:development.revalidate-side';
const base = '/api/admin/projects/default/features';

async function flag(project: string, name: string, strategy: object) {
  const features = `/api/admin/projects/${project}/features`;
  expect((await stack.admin.post(features, { name })).status).toBe(201);
  await stack.admin.post(`${features}/${name}/environments/development/strategies`, strategy);
  await stack.admin.post(`${features}/${name}/environments/development/on`);
}

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_FRONTEND_API_TOKENS: `${token},${otherProjectToken}`, FRONTEND_API_ALL_ENDPOINT: 'true' },
  });
  frontend = httpClient(stack.url, { authorization: token });
  expect((await stack.admin.post('/api/admin/projects', { id: 'side', name: 'Side' })).status).toBe(201);
  await flag('default', 'half', {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'default', groupId: 'half' },
  });
  await flag('default', 'everyone', { name: 'default' });
  await flag('side', 'side-everyone', { name: 'default' });
  await eventually(async () => (await frontend.get('/api/frontend?userId=u1')).body.toggles?.length >= 1);
}, 60_000);

afterAll(async () => {
  await stack?.dispose();
});

describe('/api/frontend revalidation', () => {
  it('answers the unmodified browser SDK 304 between changes, and the change itself in full', async () => {
    const statuses: number[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).includes('/api/frontend?')) statuses.push(response.status);
      return response;
    };
    const client = new UnleashClient({
      url: `${stack.url}/api/frontend`,
      clientKey: token,
      appName: 'revalidating-browser',
      refreshInterval: 1,
      disableMetrics: true,
      fetch: recording,
      context: { userId: 'steady-user' },
    });
    const errors: unknown[] = [];
    client.on('error', (error: unknown) => errors.push(error));
    await client.start();
    expect(client.isEnabled('everyone')).toBe(true);
    await eventually(async () => statuses.filter((status) => status === 304).length >= 2, { timeoutMs: 10_000 });
    // The 304s left the SDK's flags as they were.
    expect(client.isEnabled('everyone')).toBe(true);
    expect(statuses[0]).toBe(200);

    const updated = new Promise<void>((resolve) => client.once('update', () => resolve()));
    const seen = statuses.length;
    await stack.admin.post(`${base}/everyone/environments/development/off`);
    await updated;
    expect(client.isEnabled('everyone')).toBe(false);
    expect(statuses.slice(seen)).toContain(200);
    client.stop();
    expect(errors).toEqual([]);
  }, 30_000);

  it('gives each context, route and token its own ETag, so none is a 304 for another', async () => {
    const first = await frontend.get('/api/frontend?userId=etag-1');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{16}"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await frontend.get('/api/frontend?userId=etag-1', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    // Another user, a property more, a POST of the same context with another field: each its own answer.
    for (const path of ['/api/frontend?userId=etag-2', '/api/frontend?userId=etag-1&properties[plan]=pro']) {
      const other = await frontend.get(path, { 'if-none-match': etag });
      expect(other.status, path).toBe(200);
      expect(other.headers.get('etag'), path).not.toBe(etag);
    }
    // The same context given in a body is the same context, with the same answer.
    const posted = await frontend.post('/api/frontend', { context: { userId: 'etag-1' } }, { 'if-none-match': etag });
    expect(posted.status).toBe(304);

    // A token of another project holding a stolen ETag gets its own answer, never a 304.
    const side = httpClient(stack.url, { authorization: otherProjectToken });
    const stolen = await side.get('/api/frontend?userId=etag-1', { 'if-none-match': etag });
    expect(stolen.status).toBe(200);
    expect(stolen.body.toggles.map((toggle: { name: string }) => toggle.name)).toEqual(['side-everyone']);
    // /all lists off flags too: its answer is another, and so is its ETag.
    const all = await frontend.get('/api/frontend/all?userId=etag-1', { 'if-none-match': etag });
    expect(all.status).toBe(200);
    expect(all.headers.get('etag')).not.toBe(etag);
    // An unknown token is refused before any ETag is looked at.
    expect(
      (
        await httpClient(stack.url, { authorization: 'default:development.nope' }).get('/api/frontend?userId=etag-1', {
          'if-none-match': etag,
        })
      ).status,
    ).toBe(401);
  });

  it('sends no ETag where the context does not decide the answer: no id, a draw at random', async () => {
    const anonymous = await frontend.get('/api/frontend?properties[plan]=pro');
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('etag')).toBeNull();

    await flag('default', 'drawn', {
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'random', groupId: 'drawn' },
    });
    await eventually(async () => (await frontend.get('/api/frontend?userId=etag-3')).headers.get('etag') === null);
    await stack.admin.delete(`${base}/drawn`);
    await eventually(async () => (await frontend.get('/api/frontend?userId=etag-3')).headers.get('etag') !== null);
  });

  it('answers 304 for a flag with a date until the date passes, then the flag in full', async () => {
    // A few seconds ahead: the poll before it is a 304, the one after it the new answer, with no time in the context.
    const startsAt = new Date(Date.now() + 6_000).toISOString();
    await flag('default', 'dated', {
      name: 'default',
      constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: startsAt }],
    });
    // The edge has the flag once a context dated after the start gets it.
    await eventually(async () =>
      (await frontend.get('/api/frontend?userId=etag-4&currentTime=2100-01-01T00:00:00Z')).text.includes('"dated"'),
    );
    const waiting = await frontend.get('/api/frontend?userId=etag-4');
    expect(waiting.text).not.toContain('"dated"');
    const before = waiting.headers.get('etag')!;
    expect(before).not.toBeNull();
    const again = await frontend.get('/api/frontend?userId=etag-4', { 'if-none-match': before });
    expect(again.status).toBe(304);

    // At the very millisecond of the date the ETag moves on (the clock reached it) while DATE_AFTER is not yet true:
    // that answer is a new one without the flag, and the next has it.
    const started = await eventually(
      async () => {
        const reply = await frontend.get('/api/frontend?userId=etag-4', { 'if-none-match': before });
        return reply.status === 200 && reply.text.includes('"dated"') && reply;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(Date.now()).toBeGreaterThan(Date.parse(startsAt));
    const after = started.headers.get('etag');
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
    expect((await frontend.get('/api/frontend?userId=etag-4', { 'if-none-match': after! })).status).toBe(304);

    // With the time in the context, the context decides as before.
    const timed = await frontend.get('/api/frontend?userId=etag-4&currentTime=2020-01-01T00:00:00Z');
    expect(timed.headers.get('etag')).not.toBeNull();
    expect(timed.body.toggles.map((toggle: { name: string }) => toggle.name)).not.toContain('dated');
  });
});
