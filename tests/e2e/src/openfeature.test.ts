import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenFeature as ServerFeatures, type Client as ServerClient } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature as WebFeatures } from '@openfeature/web-sdk';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

/**
 * The unmodified OpenFeature providers for OFREP against Bunting: the server provider (client token) and the web
 * provider (frontend token, run in Node), compared with /api/frontend for the same contexts.
 */
let stack: TestStack;
let server: ServerClient;
let frontend: HttpClient;
const clientToken = 'default:development.ofrep-client';
const frontendToken = 'default:development.ofrep-frontend';
const base = '/api/admin/projects/default/features';

async function flag(name: string, strategy: object, variants?: object[], features = base) {
  await stack.admin.post(features, { name });
  await stack.admin.post(`${features}/${name}/environments/development/strategies`, strategy);
  if (variants) await stack.admin.put(`${features}/${name}/environments/development/variants`, variants);
  await stack.admin.post(`${features}/${name}/environments/development/on`);
}

const variant = (name: string, type: string, value: string) => ({
  name,
  weight: 500,
  weightType: 'variable',
  stickiness: 'userId',
  payload: { type, value },
});

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_CLIENT_API_TOKENS: clientToken, INIT_FRONTEND_API_TOKENS: frontendToken },
  });
  frontend = httpClient(stack.url, { authorization: frontendToken });
  await flag('checkout', {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'userId', groupId: 'checkout' },
    constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro', 'team'] }],
  });
  await flag('banner-text', { name: 'default' }, [
    variant('hello', 'string', 'Hello'),
    variant('welcome', 'string', 'Welcome'),
  ]);
  await flag('discount', { name: 'default' }, [variant('low', 'number', '5'), variant('high', 'number', '12.5')]);
  await flag('layout', { name: 'default' }, [
    variant('grid', 'json', '{"columns":3}'),
    variant('list', 'json', '{"columns":1}'),
  ]);
  await stack.admin.post(base, { name: 'later' });
  await eventually(async () => (await frontend.get('/api/frontend?userId=u1')).body.toggles.length >= 3);
  ServerFeatures.setProvider(new OFREPProvider({ baseUrl: stack.url, headers: { Authorization: clientToken } }));
  server = ServerFeatures.getClient();
}, 60_000);

afterAll(async () => {
  await ServerFeatures.close();
  await WebFeatures.close();
  await stack?.dispose();
});

const contexts = Array.from({ length: 24 }, (_, index) => ({
  targetingKey: `u${index}`,
  plan: ['pro', 'free', 'team'][index % 3]!,
}));

async function frontendAnswer(context: { targetingKey: string; plan: string }) {
  const { body } = await frontend.get(`/api/frontend?userId=${context.targetingKey}&properties[plan]=${context.plan}`);
  return new Map<string, { variant: { name: string; payload?: { value: string } } }>(
    body.toggles.map((toggle: { name: string }) => [toggle.name, toggle]),
  );
}

describe('the OpenFeature server provider (OFREP, client token)', () => {
  it('answers boolean, string, number and object flags as /api/frontend does for each context', async () => {
    let on = 0;
    for (const context of contexts) {
      const expected = await frontendAnswer(context);
      const checkout = await server.getBooleanDetails('checkout', false, context);
      expect(checkout.value, `checkout for ${context.targetingKey}`).toBe(expected.has('checkout'));
      expect(checkout.reason).toBe(expected.has('checkout') ? 'TARGETING_MATCH' : 'DEFAULT');
      if (checkout.value) on += 1;
      const text = await server.getStringDetails('banner-text', 'fallback', context);
      expect(text.value).toBe(expected.get('banner-text')!.variant.payload!.value);
      expect(text).toMatchObject({
        reason: 'SPLIT',
        variant: expected.get('banner-text')!.variant.name,
        flagMetadata: { project: 'default', flagType: 'release' },
      });
      expect(await server.getNumberValue('discount', 0, context)).toBe(
        Number(expected.get('discount')!.variant.payload!.value),
      );
      expect(await server.getObjectValue('layout', {}, context)).toEqual(
        JSON.parse(expected.get('layout')!.variant.payload!.value),
      );
    }
    // The rollout and its constraint split the users.
    expect(on).toBeGreaterThan(0);
    expect(on).toBeLessThan(contexts.length);
  });

  it('gives the default with FLAG_NOT_FOUND, TYPE_MISMATCH or TARGETING_KEY_MISSING, and picks up a change', async () => {
    expect(await server.getBooleanDetails('no-such-flag', true, { targetingKey: 'u1' })).toMatchObject({
      value: true,
      errorCode: 'FLAG_NOT_FOUND',
    });
    expect(await server.getNumberDetails('banner-text', 7, { targetingKey: 'u1' })).toMatchObject({
      value: 7,
      errorCode: 'TYPE_MISMATCH',
    });
    expect(await server.getBooleanDetails('checkout', true, { plan: 'pro' })).toMatchObject({
      value: true,
      errorCode: 'TARGETING_KEY_MISSING',
    });
    expect(await server.getBooleanDetails('later', false, { targetingKey: 'u1' })).toMatchObject({
      value: false,
      reason: 'DISABLED',
    });
    await stack.admin.post(`${base}/later/environments/development/on`);
    await eventually(async () => (await server.getBooleanValue('later', false, { targetingKey: 'u1' })) === true);
  });
});

describe('the OpenFeature web provider (OFREP bulk, frontend token)', () => {
  it('evaluates from its bulk answer, revalidates with an ETag, and reports an unknown flag as FLAG_NOT_FOUND', async () => {
    await WebFeatures.setContext({ targetingKey: 'u4', plan: 'pro' });
    await WebFeatures.setProviderAndWait(
      new OFREPWebProvider({ baseUrl: stack.url, headers: [['Authorization', frontendToken]] }),
    );
    const web = WebFeatures.getClient();
    const expected = await frontendAnswer({ targetingKey: 'u4', plan: 'pro' });
    expect(web.getBooleanValue('checkout', false)).toBe(expected.has('checkout'));
    expect(web.getStringValue('banner-text', 'fallback')).toBe(expected.get('banner-text')!.variant.payload!.value);
    expect(web.getObjectValue('layout', {})).toEqual(JSON.parse(expected.get('layout')!.variant.payload!.value));
    expect(web.getBooleanDetails('no-such-flag', false)).toMatchObject({ value: false, errorCode: 'FLAG_NOT_FOUND' });

    const first = await frontend.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u4', plan: 'pro' } });
    const etag = first.headers.get('etag')!;
    expect(first.body.flags.map((result: { key: string }) => result.key)).toContain('banner-text');
    expect(
      (
        await frontend.post(
          '/ofrep/v1/evaluate/flags',
          { context: { targetingKey: 'u4', plan: 'pro' } },
          { 'if-none-match': etag },
        )
      ).status,
    ).toBe(304);
    // Another answer (checkout is off for the free plan) is not that copy.
    const other = await frontend.post(
      '/ofrep/v1/evaluate/flags',
      { context: { targetingKey: 'u5', plan: 'free' } },
      { 'if-none-match': etag },
    );
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
    // A new flag is in every bulk answer (off ones included): once it reaches the edge, the old copy is stale (a 304
    // for the old ETag would never show it). Another snapshot may be installed first (a late event of an earlier
    // change), which may answer 200 without it.
    await stack.admin.post('/api/admin/projects/default/features', { name: 'etag-probe' });
    const after = await eventually(async () => {
      const reply = await frontend.post(
        '/ofrep/v1/evaluate/flags',
        { context: { targetingKey: 'u4', plan: 'pro' } },
        { 'if-none-match': etag },
      );
      return (
        reply.status === 200 && reply.body.flags.some((result: { key: string }) => result.key === 'etag-probe') && reply
      );
    });
    expect(after.headers.get('etag')).not.toBe(etag);
    await WebFeatures.setContext({ targetingKey: 'u5', plan: 'free' });
    expect(web.getBooleanValue('checkout', true)).toBe(false);
  });
});

/** Reads server-sent events off a fetch body, one parsed `data` at a time. */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ id?: string; data: any }> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data !== undefined) yield { id: /^id: (.*)$/m.exec(block)?.[1], data: JSON.parse(data) };
    }
  }
}

describe('OFREP change events (eventStreams, ADR-0008)', () => {
  it("names a stream in bulk answers to frontend tokens, which says refetchEvaluation when the token's flags change", async () => {
    const bulk = await frontend.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u7' } });
    expect(bulk.body.eventStreams).toEqual([
      { type: 'sse', url: expect.stringMatching(/\/ofrep\/v1\/event-stream\?token=/), inactivityDelaySec: 120 },
    ]);
    // A client token is a server's secret: no address with it in is handed out.
    expect(
      (await httpClient(stack.url, { authorization: clientToken }).post('/ofrep/v1/evaluate/flags', { context: {} }))
        .body.eventStreams,
    ).toBeUndefined();
    // The address is the one the token was reached at, though the answer's end is kept per token.
    const byName = httpClient(stack.url.replace('127.0.0.1', 'localhost'), { authorization: frontendToken });
    const elsewhere = await byName.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u7' } });
    expect(new URL(elsewhere.body.eventStreams[0].url).host).toBe(
      new URL(stack.url.replace('127.0.0.1', 'localhost')).host,
    );
    expect((await frontend.post('/ofrep/v1/evaluate/flags', { context: {} })).body.eventStreams).toEqual(
      bulk.body.eventStreams,
    );

    const url = new URL(bulk.body.eventStreams[0].url);
    const controller = new AbortController();
    const opened = await fetch(`${stack.url}${url.pathname}${url.search}`, {
      signal: controller.signal,
      headers: { origin: 'https://shop.example.com' },
    });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toContain('text/event-stream');
    expect(opened.headers.get('access-control-allow-origin')).not.toBeNull();
    const events = sseEvents(opened.body!);
    const etag = bulk.headers.get('etag')!;
    await stack.admin.post('/api/admin/projects/default/features', { name: 'pushed-to-web' });
    const event = (await events.next()).value!;
    expect(event.data).toMatchObject({
      type: 'refetchEvaluation',
      etag: expect.stringMatching(/^"\d+"$/),
      lastModified: expect.any(Number),
    });
    expect(event.id).toBe(event.data.etag.replaceAll('"', ''));
    // The re-fetch the event triggers (with its etag) is the new configuration, never the old copy.
    const refetched = await frontend.post(
      `/ofrep/v1/evaluate/flags?sseEtag=${encodeURIComponent(event.data.etag)}`,
      { context: { targetingKey: 'u7' } },
      { 'if-none-match': etag },
    );
    expect(refetched.status).toBe(200);
    expect(refetched.body.flags.map((result: { key: string }) => result.key)).toContain('pushed-to-web');
    controller.abort();

    // Resuming after missing an event: told at once to fetch again.
    const again = new AbortController();
    const resumed = await fetch(`${stack.url}${url.pathname}${url.search}`, {
      signal: again.signal,
      headers: { 'last-event-id': String(Number(event.id) - 1) },
    });
    const replayed = await sseEvents(resumed.body!).next();
    expect(replayed.value!.data.type).toBe('refetchEvaluation');
    again.abort();
    expect((await fetch(`${stack.url}/ofrep/v1/event-stream?token=nope`)).status).toBe(401);
  });

  it('gives another context, however alike its answers, another ETag (no 304 across users)', async () => {
    const first = await frontend.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'same-answers-1' } });
    const second = await frontend.post(
      '/ofrep/v1/evaluate/flags',
      { context: { targetingKey: 'same-answers-2' } },
      { 'if-none-match': first.headers.get('etag')! },
    );
    expect(second.status).toBe(200);
    expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });
});

describe('OFREP errors', () => {
  it('refuses missing tokens and admin tokens, and a context that is not an object, in the spec shape with the OFREP code', async () => {
    expect((await stack.anonymous.post('/ofrep/v1/evaluate/flags', {})).status).toBe(401);
    expect((await stack.admin.post('/ofrep/v1/evaluate/flags', {})).status).toBe(403);
    const invalid = await frontend.post('/ofrep/v1/evaluate/flags/checkout', { context: 'everyone' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      name: 'ValidationError',
      errorCode: 'INVALID_CONTEXT',
      id: expect.any(String),
    });
    const missing = await frontend.post('/ofrep/v1/evaluate/flags/nothing-here', {});
    expect(missing.body).toMatchObject({ name: 'NotFoundError', key: 'nothing-here', errorCode: 'FLAG_NOT_FOUND' });
    for (const body of [
      '{not json',
      '[]',
      '"text"',
      'null',
      '{"context": 7}',
      '{"context": {"currentTime": "soon"}}',
    ]) {
      for (const path of ['/ofrep/v1/evaluate/flags', '/ofrep/v1/evaluate/flags/checkout']) {
        const reply = await frontend.post(path, body, { 'content-type': 'application/json' });
        expect(reply.status, `${path} ${body}`).toBeLessThan(500);
        if (reply.status >= 400)
          expect(reply.body, `${path} ${body}`).toMatchObject({
            id: expect.any(String),
            name: expect.any(String),
            message: expect.any(String),
          });
      }
    }
    // X-API-Key, as some OpenFeature providers send the key.
    expect(
      (
        await stack.anonymous.post(
          '/ofrep/v1/evaluate/flags/banner-text',
          { context: { targetingKey: 'u1' } },
          { 'x-api-key': frontendToken },
        )
      ).status,
    ).toBe(200);
  });

  it("answers one flag only among the token's projects; a key naming a prototype is a flag not found", async () => {
    // A flag in another project, on for everyone: the token of project default must not see it.
    await stack.admin.post('/api/admin/projects', { id: 'elsewhere', name: 'Elsewhere' });
    await flag('hidden-flag', { name: 'default' }, undefined, '/api/admin/projects/elsewhere/features');
    // An all-projects client token, made through the admin API, sees it once the change has arrived.
    const made = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'ofrep-every-project',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    const all = httpClient(stack.url, { authorization: made.body.secret });
    await eventually(
      async () => (await all.post('/ofrep/v1/evaluate/flags/hidden-flag', { context: {} })).body.value === true,
    );
    for (const token of [clientToken, frontendToken]) {
      const scoped = httpClient(stack.url, { authorization: token });
      const refused = await scoped.post('/ofrep/v1/evaluate/flags/hidden-flag', { context: { targetingKey: 'u1' } });
      expect(refused.status, token).toBe(404);
      expect(refused.body).toMatchObject({ errorCode: 'FLAG_NOT_FOUND', key: 'hidden-flag' });
      const bulk = await scoped.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1' } });
      expect(bulk.body.flags.map((entry: { key: string }) => entry.key)).not.toContain('hidden-flag');
      for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        const reply = await scoped.post(`/ofrep/v1/evaluate/flags/${key}`, { context: { targetingKey: 'u1' } });
        expect(reply.status, `${token} ${key}`).toBe(404);
        expect(reply.body).toMatchObject({ errorCode: 'FLAG_NOT_FOUND', key });
      }
    }
  });
});

describe('OFREP revalidation without evaluating', () => {
  // Runs last: its dated flag makes every later bulk answer of the environment one the clock decides.
  it('answers a poll from the context alone, and a flag launched at a date in full once the date passes', async () => {
    const context = { context: { targetingKey: 'poller' } };
    const first = await frontend.post('/ofrep/v1/evaluate/flags', context);
    const decided = await frontend.post('/ofrep/v1/evaluate/flags', context, {
      'if-none-match': first.headers.get('etag')!,
    });
    expect(decided.status).toBe(304);
    expect(decided.headers.get('etag')).toBe(first.headers.get('etag'));
    // A launch scheduled two seconds ahead changes its answer with no new revision: a 304 on the old copy would
    // hide it for good.
    const launch = new Date(Date.now() + 2_000).toISOString();
    await flag('scheduled-launch', {
      name: 'default',
      constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: launch }],
    });
    const before = await eventually(async () => {
      const reply = await frontend.post('/ofrep/v1/evaluate/flags', context);
      const scheduled = (reply.body.flags as { key: string; value: boolean; reason: string }[]).find(
        (result) => result.key === 'scheduled-launch',
      );
      // On (not DISABLED) and not yet launched.
      return scheduled && scheduled.reason !== 'DISABLED' && !scheduled.value && reply;
    });
    expect(Date.now()).toBeLessThan(Date.parse(launch));
    const launched = await eventually(
      async () => {
        const reply = await frontend.post('/ofrep/v1/evaluate/flags', context, {
          'if-none-match': before.headers.get('etag')!,
        });
        const scheduled =
          reply.status === 200 &&
          (reply.body.flags as { key: string; value: boolean }[]).find((result) => result.key === 'scheduled-launch');
        return scheduled && scheduled.value && scheduled;
      },
      { timeoutMs: 10_000 },
    );
    expect(launched).toMatchObject({ key: 'scheduled-launch', value: true });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(launch));
  });
});
