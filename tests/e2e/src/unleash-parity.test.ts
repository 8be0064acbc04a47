import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  httpClient,
  loginAs,
  startTestStack,
  untilClientServes,
  type TestStack,
} from '@bunting/test-stack';

/**
 * Where Bunting answered otherwise than Unleash 8.2 does over HTTP (its own wire tests and a live Unleash compared
 * request by request), each difference as a test: integrity first (what let users corrupt their configuration),
 * then tokens and access, then shapes and validation.
 */
let stack: TestStack;
const flags = '/api/admin/projects/default/features';
const clientToken = 'default:development.parity-client';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
});
afterAll(() => stack?.dispose());

/** A request sent with its path exactly as written (URL parsing would read `//api` as a host). */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(stack.url);
    const request = httpRequest({ hostname, port, path, headers }, (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

const create = async (name: string, project = 'default') =>
  expect((await stack.admin.post(`/api/admin/projects/${project}/features`, { name })).status).toBe(201);
const eventTypes = async (flag: string) =>
  ((await stack.admin.get(`/api/admin/events/${flag}`)).body.events as { type: string }[]).map((event) => event.type);
/** The event log follows the stream: wait until the flag's history holds the event. */
const logged = (flag: string, type: string) => eventually(async () => (await eventTypes(flag)).includes(type));

describe('dependencies keep their integrity', () => {
  beforeAll(async () => {
    for (const name of ['dep-parent', 'dep-child', 'dep-grandchild', 'dep-lone']) await create(name);
    expect((await stack.admin.post(`${flags}/dep-child/dependencies`, { feature: 'dep-parent' })).status).toBe(200);
  });

  it('refuses to archive a flag others depend on, alone or in a batch without them (403), and changes nothing', async () => {
    const single = await stack.admin.delete(`${flags}/dep-parent`);
    expect(single.status).toBe(403);
    expect(single.body).toMatchObject({
      name: 'NoAccessError',
      message: expect.stringContaining('other flags depend on it'),
    });
    expect(
      (await stack.admin.post('/api/admin/projects/default/archive', { features: ['dep-parent', 'dep-lone'] })).status,
    ).toBe(403);
    expect((await stack.admin.get(`${flags}/dep-parent`)).body.archived).toBe(false);
    expect((await stack.admin.get(`${flags}/dep-lone`)).body.archived).toBe(false);
  });

  it('refuses a chain: a parent that has a parent, or a child that has children (403)', async () => {
    expect((await stack.admin.post(`${flags}/dep-grandchild/dependencies`, { feature: 'dep-child' })).status).toBe(403);
    expect((await stack.admin.post(`${flags}/dep-parent/dependencies`, { feature: 'dep-lone' })).status).toBe(403);
    expect((await stack.admin.post(`${flags}/dep-lone/dependencies`, { feature: 'dep-lone' })).status).toBe(403);
    expect((await stack.admin.post(`${flags}/dep-lone/dependencies`, { feature: 'no-such-flag' })).status).toBe(403);
    expect((await stack.admin.get(`${flags}/dep-grandchild`)).body.dependencies).toEqual([]);
  });

  it('finds no parent in another project (404)', async () => {
    await stack.admin.post('/api/admin/projects', { id: 'elsewhere', name: 'Elsewhere' });
    await create('dep-far', 'elsewhere');
    expect(
      (await stack.admin.post('/api/admin/projects/elsewhere/features/dep-far/dependencies', { feature: 'dep-parent' }))
        .status,
    ).toBe(404);
  });

  it('archives a parent together with its children; an archived child depends on nothing any more', async () => {
    await create('pair-parent');
    await create('pair-child');
    await stack.admin.post(`${flags}/pair-child/dependencies`, { feature: 'pair-parent' });
    expect(
      (await stack.admin.post('/api/admin/projects/default/archive', { features: ['pair-parent', 'pair-child'] }))
        .status,
    ).toBe(202);
    await logged('pair-child', 'feature-dependencies-removed');
    // Archiving a child alone removes its link too; then its parent may go.
    expect((await stack.admin.delete(`${flags}/dep-child`)).status).toBe(202);
    expect((await stack.admin.delete(`${flags}/dep-parent`)).status).toBe(202);
    await logged('dep-child', 'feature-dependencies-removed');
  });

  it('refuses to delete flags that active flags depend on (403), before anything else', async () => {
    await create('del-parent');
    await create('del-child');
    await stack.admin.post(`${flags}/del-child/dependencies`, { feature: 'del-parent' });
    const refused = await stack.admin.post('/api/admin/projects/default/delete', { features: ['del-parent'] });
    expect(refused.status).toBe(403);
    expect((await stack.admin.get(`${flags}/del-child`)).body.dependencies).toEqual([
      { feature: 'del-parent', enabled: true },
    ]);
  });
});

describe('flags and strategies addressed as Unleash addresses them', () => {
  beforeAll(async () => {
    await create('addressed');
    await stack.admin.post('/api/admin/projects', { id: 'other-place', name: 'Other place' });
  });

  it('does not find an archived flag (404) unless asked for with archived=true; its name is free again once deleted', async () => {
    await create('gone-soon');
    await stack.admin.delete(`${flags}/gone-soon`);
    expect((await stack.admin.get(`${flags}/gone-soon`)).status).toBe(404);
    expect((await stack.admin.get('/api/admin/features/gone-soon')).status).toBe(404);
    expect((await stack.admin.get(`${flags}/gone-soon?archived=true`)).body).toMatchObject({
      name: 'gone-soon',
      archived: true,
    });
    expect((await stack.admin.post('/api/admin/features/validate', { name: 'gone-soon' })).status).toBe(409);
    expect((await stack.admin.post('/api/admin/projects/default/delete', { features: ['gone-soon'] })).status).toBe(
      200,
    );
    expect((await stack.admin.post('/api/admin/features/validate', { name: 'gone-soon' })).status).toBe(200);
  });

  it('refuses (403) to change or remove a strategy through another project, flag or environment, and changes nothing', async () => {
    const added = await stack.admin.post(`${flags}/addressed/environments/development/strategies`, {
      name: 'default',
      constraints: [],
      parameters: {},
    });
    const id = added.body.id as string;
    const body = {
      name: 'flexibleRollout',
      constraints: [],
      parameters: { rollout: '10', stickiness: 'default', groupId: 'x' },
    };
    for (const project of ['other-place', 'no-such-project']) {
      const at = `/api/admin/projects/${project}/features/addressed/environments/development/strategies/${id}`;
      expect((await stack.admin.put(at, body)).status).toBe(403);
      expect((await stack.admin.delete(at)).status).toBe(403);
    }
    await create('another-flag');
    expect(
      (await stack.admin.put(`${flags}/another-flag/environments/development/strategies/${id}`, body)).status,
    ).toBe(403);
    expect((await stack.admin.delete(`${flags}/addressed/environments/production/strategies/${id}`)).status).toBe(403);
    expect(
      (await stack.admin.put(`${flags}/addressed/environments/development/strategies/no-such-id`, body)).status,
    ).toBe(404);
    expect((await stack.admin.get(`${flags}/addressed/environments/development/strategies/${id}`)).body).toMatchObject({
      name: 'default',
    });
  });

  it('refuses a strategy in an environment the project does not have (400)', async () => {
    await stack.admin.post('/api/admin/environments', { name: 'unconnected', type: 'test' });
    await stack.admin.delete('/api/admin/projects/default/environments/unconnected');
    const refused = await stack.admin.post(`${flags}/addressed/environments/unconnected/strategies`, {
      name: 'default',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.name).toBe('ValidationError');
    expect(
      (await stack.admin.post(`${flags}/addressed/environments/nowhere/strategies`, { name: 'default' })).status,
    ).toBe(400);
  });

  it("ignores a project in a flag's PUT and PATCH and answers with the flag's own", async () => {
    const put = await stack.admin.put(`${flags}/addressed`, {
      name: 'addressed',
      project: 'other-place',
      description: 'kept here',
      type: 'release',
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ project: 'default', description: 'kept here' });
    const patched = await stack.admin.patch(`${flags}/addressed`, [
      { op: 'replace', path: '/project', value: 'other-place' },
      { op: 'replace', path: '/description', value: 'patched' },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ project: 'default', description: 'patched' });
  });

  it("refuses variants through the flag's own PATCH (403)", async () => {
    const refused = await stack.admin.patch(`${flags}/addressed`, [
      {
        op: 'add',
        path: '/variants',
        value: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default' }],
      },
    ]);
    expect(refused.status).toBe(403);
    expect((await stack.admin.get(`${flags}/addressed/variants`)).body.variants).toEqual([]);
  });
});

describe('tokens and access', () => {
  it("keeps Unleash 8's backend type, refuses admin API tokens, and finds no tokens of an unknown project", async () => {
    const backend = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'server-sdk',
      type: 'backend',
      environment: 'development',
    });
    expect(backend.status).toBe(201);
    expect(backend.body.type).toBe('backend');
    const admin = await stack.admin.post('/api/admin/api-tokens', { tokenName: 'root', type: 'admin' });
    expect(admin.status).toBe(400);
    expect(admin.body.name).toBe('ValidationError');
    expect((await stack.admin.get('/api/admin/projects/no-such-project/api-tokens')).status).toBe(404);
    expect(
      (
        await stack.admin.post('/api/admin/projects/no-such-project/api-tokens', {
          tokenName: 'x',
          type: 'client',
          environment: 'development',
        })
      ).status,
    ).toBe(404);
    expect((await stack.admin.delete('/api/admin/projects/default/api-tokens/no-such-token')).status).toBe(404);
    const expiry = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      (await stack.admin.put(`/api/admin/api-tokens/${encodeURIComponent(backend.body.secret)}`, { expiresAt: expiry }))
        .status,
    ).toBe(200);
    const listed = (await stack.admin.get('/api/admin/api-tokens')).body.tokens as {
      tokenName: string;
      expiresAt: string;
    }[];
    expect(Date.parse(listed.find((token) => token.tokenName === 'server-sdk')!.expiresAt)).toBe(Date.parse(expiry));
    // A token it does not have: 200, as Unleash 8.2 answers (its Terraform provider's update relies on it), and no
    // event: after a later real update is in the log, the log holds two updates, not three.
    const updates = async () =>
      (await stack.admin.get('/api/admin/search/events?type=IS:api-token-updated&limit=10')).body.total as number;
    await eventually(async () => (await updates()) === 1);
    expect(
      (await stack.admin.put('/api/admin/api-tokens/default:development.no-such-secret', { expiresAt: expiry })).status,
    ).toBe(200);
    expect((await stack.admin.put('/api/admin/api-tokens/no-such-token', { expiresAt: 'tomorrow' })).status).toBe(400);
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await stack.admin.put(`/api/admin/api-tokens/${encodeURIComponent(backend.body.secret)}`, { expiresAt: later });
    await eventually(async () => (await updates()) >= 2);
    expect(await updates()).toBe(2);
  });

  it('refuses a second personal access token with the same description (409)', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    // Personal tokens belong to a person: sign in as one.
    const person = await loginAs(stack.url, 'admin', 'unleash4all');
    expect((await person.post('/api/admin/user/tokens', { description: 'laptop', expiresAt })).status).toBe(201);
    const again = await person.post('/api/admin/user/tokens', { description: 'laptop', expiresAt });
    expect(again.status).toBe(409);
    expect(again.body.name).toBe('NameExistsError');
  });

  it('answers an admin token on the client API with 403, and filters the client API by namePrefix', async () => {
    expect((await stack.admin.get('/api/client/features')).status).toBe(403);
    await create('prefix-alpha');
    await create('other-beta');
    await untilClientServes(stack.url, clientToken, 'other-beta');
    const client = httpClient(stack.url, { authorization: clientToken });
    const names = (
      (await client.get('/api/client/features?namePrefix=prefix-')).body.features as { name: string }[]
    ).map((flag) => flag.name);
    expect(names).toEqual(['prefix-alpha']);
  });

  it('takes a metrics post with a null bucket and only impact metrics (202), as SDKs and Edge send it', async () => {
    const client = httpClient(stack.url, { authorization: clientToken });
    const post = await client.post('/api/client/metrics', {
      appName: 'impact-only',
      instanceId: 'i-1',
      bucket: null,
      impactMetrics: [{ name: 'checkouts', help: 'Checkouts', type: 'counter', samples: [{ labels: {}, value: 1 }] }],
    });
    expect(post.status).toBe(202);
  });

  it("exposes SDKs' impact metrics as Unleash 8.2's own impact-metrics test expects, its posts replayed over HTTP", async () => {
    const client = httpClient(stack.url, { authorization: clientToken });
    const send = (impactMetrics: unknown[]) =>
      client.post('/api/client/metrics', {
        appName: 'impact-metrics-app',
        instanceId: 'instance-id',
        bucket: null,
        impactMetrics,
      });
    const labeled = (value: number, help?: string) => ({
      name: 'labeled_counter',
      ...(help === undefined ? {} : { help }),
      type: 'counter',
      samples: [{ labels: { foo: 'bar' }, value }],
    });
    const histogram = (count: number, sum: number, belowOne: number) => ({
      name: 'response_time',
      help: 'Response time histogram',
      type: 'histogram',
      samples: [
        {
          labels: { foo: 'bar' },
          count,
          sum,
          buckets: [
            { le: 1, count: belowOne },
            { le: '+Inf', count },
          ],
        },
      ],
    });
    const bulk = (value: number) =>
      client.post('/api/client/metrics/bulk', {
        applications: [],
        metrics: [],
        impactMetrics: [
          {
            name: 'bulk_counter',
            help: 'bulk counter with labels',
            type: 'counter',
            samples: [{ labels: { source: 'bulk' }, value }],
          },
        ],
      });
    for (const reply of [
      await send([labeled(5, 'with labels')]),
      await send([labeled(10, 'with labels')]),
      await send([]),
      // Without a help text: taken (202), its value left out.
      await send([labeled(10)]),
      await bulk(7),
      await bulk(8),
      await send([histogram(10, 8.5, 7)]),
      await send([histogram(5, 3.2, 3)]),
    ])
      expect(reply.status).toBe(202);
    const text = await eventually(async () => {
      const exposition = (await stack.anonymous.get('/internal-backstage/impact/metrics')).text;
      return (
        /^response_time_count\{.*\} 15$/m.test(exposition) && /^bulk_counter\{.*\} 15$/m.test(exposition) && exposition
      );
    });
    expect(text).toContain('# HELP labeled_counter with labels');
    expect(text).toContain('# TYPE labeled_counter counter');
    expect(text).toMatch(/labeled_counter{origin="sdk",metric_type="counter",foo="bar"} 15/);
    expect(text).toContain('# HELP bulk_counter bulk counter with labels');
    expect(text).toMatch(/bulk_counter{origin="sdk",metric_type="counter",source="bulk"} 15/);
    expect(text).toContain('# TYPE response_time histogram');
    expect(text).toContain('response_time_bucket{foo="bar",metric_type="histogram",origin="sdk",le="1"} 10');
    expect(text).toContain('response_time_bucket{foo="bar",metric_type="histogram",origin="sdk",le="+Inf"} 15');
    expect(text).toContain('response_time_sum{foo="bar",metric_type="histogram",origin="sdk"} 11.7');
    expect(text).toContain('response_time_count{foo="bar",metric_type="histogram",origin="sdk"} 15');
  });

  it('treats repeated slashes as one, for routing and authentication alike', async () => {
    const admin = { authorization: stack.adminToken };
    expect(await raw('//api/admin/tags', admin)).toMatchObject({ status: 200, body: { tags: expect.any(Array) } });
    expect((await raw('/////api/client/features', { authorization: clientToken })).status).toBe(200);
    expect((await raw('//api/admin/tags', {})).status).toBe(401);
    expect((await raw('//api/admin//tags?x=a//b', admin)).status).toBe(200);
  });
});

describe('shapes and validation', () => {
  it('validates tag types and tags as Unleash does, naming the field in its words', async () => {
    const unfriendly = await stack.admin.post('/api/admin/tag-types', { name: 'not url friendly' });
    expect(unfriendly.status).toBe(400);
    expect(unfriendly.body.details[0].message).toMatch('"name" must be URL friendly');
    const badTag = await stack.admin.post('/api/admin/tags', { type: 'not url friendly', value: 'xx' });
    expect(badTag.status).toBe(400);
    expect(badTag.body.details[0].message).toMatch('"type" must be URL friendly');
    const colour = await stack.admin.post('/api/admin/tag-types', { name: 'coloured', color: 'notacolor' });
    expect(colour.status).toBe(400);
    expect(colour.body.details[0].message).toMatch(/color/);
    // Numbers for the text fields are taken as their text.
    const numbers = await stack.admin.post('/api/admin/tag-types', { name: 'numbered', description: 5, icon: 7 });
    expect(numbers.status).toBe(201);
    expect((await stack.admin.get('/api/admin/tag-types/numbered')).body.tagType).toMatchObject({
      description: '5',
      icon: '7',
    });
  });

  it('accepts valid constraints at the validation route (204) and a strategy definition updated with its deprecated field', async () => {
    expect(
      (
        await stack.admin.post('/api/admin/constraints/validate', {
          contextName: 'userId',
          operator: 'IN',
          values: ['a'],
        })
      ).status,
    ).toBe(204);
    // A context name nobody defined is valid too; an empty single value is not, even beside values (400 in both).
    expect(
      (
        await stack.admin.post('/api/admin/constraints/validate', {
          contextName: 'nobodys',
          operator: 'IN',
          values: ['a'],
        })
      ).status,
    ).toBe(204);
    const empty = await stack.admin.post('/api/admin/constraints/validate', {
      contextName: 'userId',
      operator: 'IN',
      values: ['a'],
      value: '',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.name).toBe('ValidationError');
    await stack.admin.post('/api/admin/strategies', { name: 'retiring', parameters: [] });
    // As in Unleash the field is taken, and deprecating is its own route.
    expect(
      (await stack.admin.put('/api/admin/strategies/retiring', { name: 'retiring', parameters: [], deprecated: true }))
        .status,
    ).toBe(200);
    expect((await stack.admin.post('/api/admin/strategies/retiring/deprecate')).status).toBe(200);
    expect((await stack.admin.get('/api/admin/strategies/retiring')).body.deprecated).toBe(true);
  });

  it('takes numbers where Unleash coerces them to text, and a list operator reads values only', async () => {
    const validate = (body: object) => stack.admin.post('/api/admin/constraints/validate', body);
    expect((await validate({ contextName: 'environment', operator: 'NUM_EQ', value: 1 })).status).toBe(204);
    expect((await validate({ contextName: 'anything', operator: 'IN', values: [7] })).status).toBe(204);
    expect((await validate({ contextName: 'anything', operator: 'IN', value: 1 })).status).toBe(400);
    // A number for a tag's value is its text; the refusal names the one field that is wrong, as Unleash's does.
    const refused = await stack.admin.post('/api/admin/tags', { value: 124, type: 'not url friendly' });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toHaveLength(1);
    expect(refused.body.details[0].message).toMatch('"type" must be URL friendly');
  });

  it('keeps a flag made with archived: true in the archive, and frees its name once deleted', async () => {
    expect((await stack.admin.post(flags, { name: 'born-archived', archived: true })).body.archived).toBe(true);
    expect((await stack.admin.post('/api/admin/features/validate', { name: 'born-archived' })).status).toBe(409);
    expect((await stack.admin.get(`${flags}/born-archived?archived=true`)).body.archived).toBe(true);
    expect((await stack.admin.delete('/api/admin/archive/born-archived')).status).toBe(200);
    expect((await stack.admin.post('/api/admin/features/validate', { name: 'born-archived' })).status).toBe(200);
  });

  it("takes only flexibleRollout as an environment's default strategy", async () => {
    const path = '/api/admin/projects/default/environments/development/default-strategy';
    expect((await stack.admin.post(path, { name: 'default', constraints: [], parameters: {} })).status).toBe(400);
    expect(
      (
        await stack.admin.post(path, {
          name: 'flexibleRollout',
          constraints: [],
          parameters: { rollout: '50', stickiness: 'default', groupId: '' },
        })
      ).status,
    ).toBe(200);
  });

  it("lists Unleash 8's sunset flag type (90 days) and takes it for a flag", async () => {
    const types = (await stack.admin.get('/api/admin/feature-types')).body.types as {
      id: string;
      lifetimeDays: number | null;
    }[];
    expect(types.find((type) => type.id === 'sunset')).toMatchObject({ lifetimeDays: 90 });
    expect((await stack.admin.post(flags, { name: 'old-checkout', type: 'sunset' })).status).toBe(201);
  });

  it("answers ui-config's maxSessionsCount and the flag creators as a searchable page", async () => {
    await loginAs(stack.url, 'admin', 'unleash4all');
    await loginAs(stack.url, 'admin', 'unleash4all');
    const config = (await stack.admin.get('/api/admin/ui-config')).body;
    expect(config.maxSessionsCount).toBeGreaterThanOrEqual(2);
    const creators = (await stack.admin.get('/api/admin/flag-creators')).body;
    expect(creators).toEqual({ flagCreators: [expect.objectContaining({ name: 'admin' })], total: 1 });
    expect((await stack.admin.get('/api/admin/flag-creators?q=nobody')).body.total).toBe(0);
  });
});

describe("the routes Unleash's web UI calls", () => {
  it("records a person's feedback answers and lists them in /api/admin/user; a token has none to give", async () => {
    const person = await loginAs(stack.url, 'admin', 'unleash4all');
    const given = await person.post('/api/admin/feedback', { feedbackId: 'pnps' });
    expect(given.status).toBe(200);
    expect(given.body).toMatchObject({
      feedbackId: 'pnps',
      neverShow: false,
      given: expect.any(String),
      userId: expect.any(Number),
    });
    const changed = await person.put('/api/admin/feedback/pnps', { neverShow: true });
    expect(changed.body).toMatchObject({ feedbackId: 'pnps', neverShow: true, given: given.body.given });
    expect((await person.get('/api/admin/user')).body.feedback).toEqual([changed.body]);
    expect((await stack.admin.post('/api/admin/feedback', { feedbackId: 'pnps' })).status).toBe(400);
    expect((await person.post('/api/admin/feedback', {})).status).toBe(400);
  });

  it("answers a project of the personal dashboard: owners, the caller's roles, its latest events and its health", async () => {
    await create('dashboard-flag');
    const person = await loginAs(stack.url, 'admin', 'unleash4all');
    const answer = await eventually(async () => {
      const reply = await person.get('/api/admin/personal-dashboard/default');
      return (
        (reply.body.latestEvents as { summary: string }[] | undefined)?.some((event) =>
          event.summary.includes('dashboard-flag'),
        ) && reply
      );
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      owners: expect.any(Array),
      roles: expect.any(Array),
      onboardingStatus: { status: expect.any(String) },
      insights: {
        totalFlags: expect.any(Number),
        activeFlags: expect.any(Number),
        health: expect.any(Number),
        technicalDebt: expect.any(Number),
        avgHealthCurrentWindow: null,
      },
    });
    expect(answer.body.latestEvents[0]).toEqual({
      id: expect.any(Number),
      summary: expect.stringContaining('**'),
      createdBy: expect.any(String),
      createdByImageUrl: expect.stringContaining('gravatar'),
      createdAt: expect.any(String),
    });
    expect(answer.body.latestEvents.length).toBeLessThanOrEqual(10);
    expect((await person.get('/api/admin/personal-dashboard/no-such-project')).status).toBe(404);
  });
});
