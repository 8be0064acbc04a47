import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventLogTotalAfterMarker,
  loginAs,
  startTestStack,
  type HttpClient,
  type Reply,
  type TestStack,
} from '@bunting/test-stack';
import { syncV0 } from './openfeature-sync-v0.ts';

/**
 * The OpenFeature CLI's manifest API, driven as `openfeature pull` and `openfeature push` drive it (a GET, then POSTs
 * of new flags and PUTs of changed ones, with a bearer token and the CLI's user agent). Every answer is checked
 * against the sync document's shapes.
 */
let stack: TestStack;
let cli: HttpClient;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const strict = syncV0(false);
const withFloat = syncV0(true);

type Shape = keyof ReturnType<typeof syncV0>;
/** Checks an answer's status, body shape and capabilities header; returns its body. */
function expectAnswer(reply: Reply, status: number, shape: Shape, allowFloat = false) {
  expect(reply.status, reply.text).toBe(status);
  const schema = (allowFloat ? withFloat : strict)[shape];
  const validate = ajv.compile(schema);
  expect(validate(reply.body), `${ajv.errorsText(validate.errors)} in ${reply.text}`).toBe(true);
  if (status < 300) expect(reply.headers.get('x-manifest-capabilities')).toMatch(/^read(,write)?(,delete)?$/);
  return reply.body;
}

const events = async (flag: string) =>
  (await stack.admin.get(`/api/admin/search/events?feature=IS:${flag}&limit=100`)).body.events as {
    type: string;
    createdVia?: string;
    data: Record<string, unknown> | null;
  }[];

beforeAll(async () => {
  stack = await startTestStack();
  cli = stack.anonymous.withHeaders({
    authorization: `Bearer ${stack.adminToken}`,
    'user-agent': 'openfeature-cli/sync',
  });
  // Flags made in Bunting, typed from their variants.
  const project = '/api/admin/projects/default/features';
  await stack.admin.post(project, { name: 'of-plain', description: 'No variants' });
  const variants = async (name: string, payloads: { type: string; value: string }[]) => {
    await stack.admin.post(project, { name });
    const reply = await stack.admin.put(
      `${project}/${name}/environments/development/variants`,
      payloads.map((payload, i) => ({
        name: `v${i}`,
        weight: 1000 / payloads.length,
        weightType: 'variable',
        stickiness: 'default',
        payload,
      })),
    );
    expect(reply.status, reply.text).toBeLessThan(300);
  };
  await variants('of-text', [
    { type: 'string', value: 'blue' },
    { type: 'string', value: 'green' },
  ]);
  await variants('of-json', [{ type: 'json', value: '{"limit":5}' }]);
  await variants('of-count', [{ type: 'number', value: '7' }]);
  await variants('of-ratio', [{ type: 'number', value: '0.25' }]);
}, 120_000);
afterAll(() => stack?.dispose());

describe('OpenFeature manifest API', () => {
  it('pulls every active flag with a type and default taken from its variants', async () => {
    const body = expectAnswer(await cli.get('/openfeature/v0/manifest'), 200, 'envelope', true);
    const byKey = Object.fromEntries(body.flags.map((flag: { key: string }) => [flag.key, flag]));
    expect(byKey['of-plain']).toEqual({
      key: 'of-plain',
      name: 'of-plain',
      type: 'boolean',
      description: 'No variants',
      defaultValue: false,
    });
    expect(byKey['of-text']).toMatchObject({ type: 'string', defaultValue: 'blue' });
    expect(byKey['of-json']).toMatchObject({ type: 'object', defaultValue: { limit: 5 } });
    expect(byKey['of-count']).toMatchObject({ type: 'integer', defaultValue: 7 });
    expect(byKey['of-ratio']).toMatchObject({ type: 'float', defaultValue: 0.25 });
    expect((await cli.get('/openfeature/v0/manifest')).headers.get('x-manifest-capabilities')).toBe(
      'read,write,delete',
    );
  });

  it('pushes new flags and changed ones; pushing again changes nothing and writes no event', async () => {
    const made = await cli.post('/openfeature/v0/manifest/flags', {
      key: 'of-checkout',
      name: 'New checkout',
      type: 'object',
      description: 'Checkout settings',
      defaultValue: { steps: 3, express: false },
    });
    expect(expectAnswer(made, 201, 'flagResponse').flag).toEqual({
      key: 'of-checkout',
      name: 'New checkout',
      type: 'object',
      description: 'Checkout settings',
      defaultValue: { steps: 3, express: false },
    });
    expect(made.headers.get('location')).toBe('/openfeature/v0/manifest/flags/of-checkout');
    for (const [key, type, defaultValue] of [
      ['of-banner', 'string', 'Welcome'],
      ['of-retries', 'integer', 3],
      ['of-search', 'boolean', true],
    ] as const) {
      expectAnswer(await cli.post('/openfeature/v0/manifest/flags', { key, type, defaultValue }), 201, 'flagResponse');
    }
    // The flag exists in Bunting, off everywhere, made by the token through the CLI.
    const flag = await stack.admin.get('/api/admin/projects/default/features/of-checkout');
    expect(flag.body).toMatchObject({ name: 'of-checkout', description: 'Checkout settings' });
    expect(flag.body.environments.every((environment: { enabled: boolean }) => !environment.enabled)).toBe(true);
    const created = (await events('of-checkout')).find((event) => event.type === 'feature-created');
    expect(created?.createdVia).toBe('openfeature-cli/sync');

    const changed = await cli.put('/openfeature/v0/manifest/flags/of-checkout', {
      key: 'of-checkout',
      name: 'Checkout',
      type: 'object',
      description: 'Checkout settings, v2',
      defaultValue: { steps: 2, express: true },
    });
    expect(expectAnswer(changed, 200, 'flagResponse').flag).toMatchObject({
      name: 'Checkout',
      description: 'Checkout settings, v2',
      defaultValue: { steps: 2, express: true },
    });
    const pulled = expectAnswer(await cli.get('/openfeature/v0/manifest'), 200, 'envelope', true);
    expect(pulled.flags.find((item: { key: string }) => item.key === 'of-checkout')).toEqual(changed.body.flag);

    const before = await eventLogTotalAfterMarker(stack.admin);
    const again = await cli.put('/openfeature/v0/manifest/flags/of-checkout', changed.body.flag);
    expectAnswer(again, 200, 'flagResponse');
    expect(again.body.updatedAt).toBe(changed.body.updatedAt);
    // Only the second marker's own event lies between the two totals.
    expect(await eventLogTotalAfterMarker(stack.admin)).toBe(before + 1);
    // A flag typed from its variants keeps its derived type when only its description changes.
    expectAnswer(
      await cli.put('/openfeature/v0/manifest/flags/of-count', {
        key: 'of-count',
        type: 'integer',
        description: 'Seven',
      }),
      200,
      'flagResponse',
    );
  });

  it('refuses what the sync document refuses, in its error shape, and changes nothing', async () => {
    const conflict = await cli.post('/openfeature/v0/manifest/flags', {
      key: 'of-plain',
      type: 'boolean',
      defaultValue: false,
    });
    expect(expectAnswer(conflict, 409, 'error').error.status).toBe(409);
    const typeChange = await cli.put('/openfeature/v0/manifest/flags/of-plain', {
      key: 'of-plain',
      type: 'string',
      defaultValue: 'x',
    });
    expect(expectAnswer(typeChange, 409, 'error').error.message).toBe(
      'Flag type cannot be changed from boolean to string.',
    );
    const mismatch = await cli.put('/openfeature/v0/manifest/flags/of-plain', { key: 'of-other', type: 'boolean' });
    expect(expectAnswer(mismatch, 400, 'error').error.details).toEqual([
      { field: 'key', code: 'custom', message: 'Path key and payload key differ.' },
    ]);
    const unknownKey = await cli.post('/openfeature/v0/manifest/flags', {
      key: 'of-extra',
      type: 'boolean',
      defaultValue: false,
      variants: [],
    });
    expect(expectAnswer(unknownKey, 400, 'error').error).toMatchObject({
      message: 'Validation failed.',
      details: [expect.objectContaining({ code: 'unrecognized_keys' })],
    });
    const missing = await cli.post('/openfeature/v0/manifest/flags', { type: 'boolean', defaultValue: false });
    expect(expectAnswer(missing, 400, 'error').error.details).toEqual([
      expect.objectContaining({ field: 'key', code: 'invalid_type' }),
    ]);
    const wrongDefault = await cli.post('/openfeature/v0/manifest/flags', {
      key: 'of-wrong',
      type: 'integer',
      defaultValue: 1.5,
    });
    expect(expectAnswer(wrongDefault, 400, 'error').error.details[0]).toMatchObject({ field: 'defaultValue' });
    const unknown = await cli.put('/openfeature/v0/manifest/flags/of-none', { key: 'of-none', type: 'boolean' });
    expect(expectAnswer(unknown, 404, 'error').error.message).toBe('Flag "of-none" was not found.');
    expectAnswer(await cli.delete('/openfeature/v0/manifest/flags/of-none'), 404, 'error');
    const notJson = await cli.call('POST', '/openfeature/v0/manifest/flags', '{"key": ', {
      'content-type': 'application/json',
    });
    expectAnswer(notJson, 400, 'error');
    const prototype = await cli.call(
      'POST',
      '/openfeature/v0/manifest/flags',
      '{"key":"of-proto","type":"object","defaultValue":{"__proto__":{"polluted":true}}}',
      { 'content-type': 'application/json' },
    );
    expectAnswer(prototype, 400, 'error');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    for (const key of ['of-wrong', 'of-extra', 'of-proto'])
      expect((await stack.admin.get(`/api/admin/projects/default/features/${key}`)).status).toBe(404);
  });

  it('archives on delete: the flag leaves the manifest, its key stays taken, and it cannot be updated', async () => {
    expectAnswer(
      await cli.post('/openfeature/v0/manifest/flags', { key: 'of-old', type: 'boolean', defaultValue: false }),
      201,
      'flagResponse',
    );
    const archived = expectAnswer(await cli.delete('/openfeature/v0/manifest/flags/of-old'), 200, 'archive');
    expect(Date.parse(archived.archivedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(
      (await stack.admin.get('/api/admin/archive/features')).body.features.map((f: { name: string }) => f.name),
    ).toContain('of-old');
    const pulled = expectAnswer(await cli.get('/openfeature/v0/manifest'), 200, 'envelope', true);
    expect(pulled.flags.map((flag: { key: string }) => flag.key)).not.toContain('of-old');
    expect(
      expectAnswer(await cli.delete('/openfeature/v0/manifest/flags/of-old'), 409, 'error').error.message,
    ).toContain('already archived');
    expect(
      expectAnswer(
        await cli.post('/openfeature/v0/manifest/flags', { key: 'of-old', type: 'boolean', defaultValue: false }),
        409,
        'error',
      ).error.message,
    ).toContain('archived');
    expectAnswer(
      await cli.put('/openfeature/v0/manifest/flags/of-old', { key: 'of-old', type: 'boolean' }),
      409,
      'error',
    );
  });

  it('gives a low-value credential only what it may have elsewhere', async () => {
    expectAnswer(await stack.anonymous.get('/openfeature/v0/manifest'), 401, 'error');
    const sdk = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'of-sdk',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    const sdkClient = stack.anonymous.withHeaders({ authorization: `Bearer ${sdk.body.secret}` });
    expectAnswer(await sdkClient.get('/openfeature/v0/manifest'), 403, 'error');
    expectAnswer(
      await sdkClient.post('/openfeature/v0/manifest/flags', {
        key: 'of-sdk-made',
        type: 'boolean',
        defaultValue: true,
      }),
      403,
      'error',
    );
    await stack.admin.post('/api/admin/user-admin', {
      username: 'of-viewer',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const viewer = await loginAs(stack.url, 'of-viewer', 'a-long-password');
    const read = await viewer.get('/openfeature/v0/manifest');
    expectAnswer(read, 200, 'envelope', true);
    expect(read.headers.get('x-manifest-capabilities')).toBe('read');
    expectAnswer(
      await viewer.post('/openfeature/v0/manifest/flags', {
        key: 'of-viewer-made',
        type: 'boolean',
        defaultValue: true,
      }),
      403,
      'error',
    );
    expectAnswer(await viewer.delete('/openfeature/v0/manifest/flags/of-plain'), 403, 'error');
    expectAnswer(
      await viewer.put('/openfeature/v0/manifest/flags/of-plain', {
        key: 'of-plain',
        type: 'boolean',
        description: 'mine',
      }),
      403,
      'error',
    );
    expect((await stack.admin.get('/api/admin/projects/default/features/of-plain')).body.description).toBe(
      'No variants',
    );
    expect((await stack.admin.get('/api/admin/projects/default/features/of-viewer-made')).status).toBe(404);
  });
});
