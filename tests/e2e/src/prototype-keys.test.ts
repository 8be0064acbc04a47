import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  eventually,
  httpClient,
  loginAs,
  startTestStack,
  type HttpClient,
  type Reply,
  type TestStack,
} from '@bunting/test-stack';

/**
 * Every place that walks or merges a path or an object a client sends, tried with `__proto__`, `constructor` and
 * `prototype`, each as a holder of the credential that reaches it (the SCIM token, an SDK token, an editor's token,
 * a signal endpoint's token). After each: nothing of this process's prototypes changed, a fresh object has no such
 * property, no answer is a 5xx, and a flag whose only strategy needs `plan IN ["pro"]` is still off for everyone.
 */
const FLAG = 'pro-only';
const SCRATCH = '/api/admin/projects/default/features/scratch';
const frontendToken = 'default:development.prototype-frontend';
const clientToken = 'default:development.prototype-client';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

// Objects whose keys reach a prototype, as JSON text: JSON.stringify would drop a literal's `__proto__`.
const POLLUTING_OBJECTS = [
  '{"__proto__":{"plan":"pro","polluted":"yes"}}',
  '{"constructor":{"prototype":{"plan":"pro","polluted":"yes"}}}',
  '{"\\u005f\\u005fproto__":{"plan":"pro","polluted":"yes"}}',
  '{"a":[{"b":{"constructor":{"prot\\u006ftype":{"plan":"pro"}}}}]}',
];
// The same names holding plain data: taken as data wherever the shape allows, and granting nothing.
const DATA_OBJECTS = [
  '{"prototype":{"plan":"pro","polluted":"yes"}}',
  '{"constructor":"pro","toString":"pro","valueOf":"pro","hasOwnProperty":"pro"}',
];

let stack: TestStack;
let scim: HttpClient;
let editor: HttpClient;
let scimUserId = '';
let scimGroupId = '';
const builtInNames = new Map<object, string[]>();
const seen: { what: string; status: number }[] = [];

function untouched(): void {
  for (const [prototype, names] of builtInNames) expect(Object.getOwnPropertyNames(prototype).sort()).toEqual(names);
  const fresh = {} as Record<string, unknown>;
  for (const name of ['plan', 'polluted', 'admin']) {
    expect(fresh[name]).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>)[name]).toBeUndefined();
    expect(('' as unknown as Record<string, unknown>)[name]).toBeUndefined();
  }
  expect(Object.getPrototypeOf(fresh)).toBe(Object.prototype);
}

async function flagStillOff(): Promise<void> {
  const sdk = httpClient(stack.url, { authorization: frontendToken });
  const answer = await sdk.get('/api/frontend?userId=someone');
  expect(answer.status).toBe(200);
  expect((answer.body.toggles as { name: string }[]).map((toggle) => toggle.name)).not.toContain(FLAG);
  const withPlan = await sdk.get('/api/frontend?userId=someone&properties[plan]=pro');
  expect((withPlan.body.toggles as { name: string }[]).map((toggle) => toggle.name)).toContain(FLAG);
  const played = await stack.admin.post('/api/admin/playground', {
    environment: 'development',
    projects: '*',
    context: { appName: 'check', userId: 'someone' },
  });
  expect(played.status).toBe(200);
  expect(
    (played.body.features as { name: string; isEnabled: boolean }[]).find((feature) => feature.name === FLAG)
      ?.isEnabled,
  ).toBe(false);
}

/** Records the answer (never a 5xx) and checks nothing changed. */
function checked(what: string, answer: Reply): Reply {
  seen.push({ what, status: answer.status });
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  untouched();
  return answer;
}

beforeAll(async () => {
  for (const prototype of [
    Object.prototype,
    Array.prototype,
    Function.prototype,
    String.prototype,
    Number.prototype,
    Boolean.prototype,
  ]) {
    builtInNames.set(prototype, Object.getOwnPropertyNames(prototype).sort());
  }
  stack = await startTestStack({
    env: { INIT_FRONTEND_API_TOKENS: frontendToken, INIT_CLIENT_API_TOKENS: clientToken },
  });
  const flags = '/api/admin/projects/default/features';
  expect((await stack.admin.post(flags, { name: FLAG })).status).toBe(201);
  expect(
    (
      await stack.admin.post(`${flags}/${FLAG}/environments/development/strategies`, {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: FLAG },
        constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }],
      })
    ).status,
  ).toBe(200);
  expect((await stack.admin.post(`${flags}/${FLAG}/environments/development/on`)).status).toBe(200);
  expect((await stack.admin.post(flags, { name: 'scratch' })).status).toBe(201);
  await eventually(async () => {
    const answer = await httpClient(stack.url, { authorization: frontendToken }).get(
      '/api/frontend?userId=u&properties[plan]=pro',
    );
    return (answer.body?.toggles as { name: string }[] | undefined)?.some((toggle) => toggle.name === FLAG);
  });

  expect((await stack.admin.post('/api/admin/scim-settings', { enabled: true })).status).toBe(200);
  const scimToken = (await stack.admin.post('/api/admin/scim-settings/generate-new-token')).body.token as string;
  scim = httpClient(stack.url, { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' });
  const user = await scim.post('/scim/v2/Users', {
    schemas: [USER_SCHEMA],
    userName: 'pat@example.com',
    emails: [{ value: 'pat@example.com', primary: true }],
    active: true,
  });
  scimUserId = user.body.id as string;
  const group = await scim.post('/scim/v2/Groups', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName: 'Provisioned',
    members: [{ value: scimUserId }],
  });
  scimGroupId = group.body.id as string;

  await stack.admin.post('/api/admin/user-admin', {
    username: 'proto-editor',
    password: 'a-long-password',
    rootRole: 'Editor',
  });
  editor = await loginAs(stack.url, 'proto-editor', 'a-long-password');
  untouched();
  await flagStillOff();
}, 60_000);
afterAll(() => stack?.dispose());

describe('SCIM, as Okta and Entra ID send operations', () => {
  const user = () => `/scim/v2/Users/${scimUserId}`;
  const refusedAsPath = (answer: Reply) => {
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: '400', scimType: 'invalidPath' });
  };

  it('refuses a path through __proto__ or constructor.prototype, in any operation, as invalidPath', async () => {
    const paths = [
      '__proto__.plan',
      'constructor.prototype.plan',
      'name.__proto__.plan',
      'emails[type eq "work"].__proto__',
      `${USER_SCHEMA}:__proto__.plan`,
      'toString.plan',
      'urn:x:__proto__:plan',
    ];
    for (const path of paths) {
      for (const op of ['add', 'Replace', 'remove']) {
        refusedAsPath(
          checked(
            `SCIM ${op} ${path}`,
            await scim.patch(user(), { schemas: [PATCH_OP], Operations: [{ op, path, value: 'pro' }] }),
          ),
        );
      }
    }
  });

  it('refuses the keys of a value given without a path, as Entra sends them', async () => {
    const values = [
      ...POLLUTING_OBJECTS,
      '{"constructor.prototype.plan":"pro"}',
      '{"name":{"__proto__":{"plan":"pro"}}}',
      `{"${USER_SCHEMA}:__proto__":{"plan":"pro"}}`,
    ];
    for (const value of values) {
      const body = `{"schemas":["${PATCH_OP}"],"Operations":[{"op":"Replace","value":${value}}]}`;
      refusedAsPath(checked(`SCIM path-less ${value}`, await scim.call('PATCH', user(), body)));
      // Plain JSON is read the same way.
      refusedAsPath(
        checked(
          `SCIM path-less as JSON ${value}`,
          await scim.call('PATCH', user(), body, { 'content-type': 'application/json' }),
        ),
      );
    }
    // A whole user with such keys.
    for (const value of POLLUTING_OBJECTS) {
      const body = `{"schemas":["${USER_SCHEMA}"],"userName":"pat@example.com","active":true,"name":${value}}`;
      refusedAsPath(checked(`SCIM PUT ${value}`, await scim.call('PUT', user(), body)));
    }
  });

  it('refuses the same through a group, and changes nothing', async () => {
    const group = `/scim/v2/Groups/${scimGroupId}`;
    for (const path of [
      '__proto__.plan',
      'members[value eq "x"].__proto__.plan',
      'constructor.prototype.displayName',
    ]) {
      refusedAsPath(
        checked(
          `SCIM group ${path}`,
          await scim.patch(group, { schemas: [PATCH_OP], Operations: [{ op: 'add', path, value: 'pro' }] }),
        ),
      );
    }
    const body = `{"schemas":["${PATCH_OP}"],"Operations":[{"op":"add","value":${POLLUTING_OBJECTS[0]}}]}`;
    refusedAsPath(checked('SCIM group path-less', await scim.call('PATCH', group, body)));
    expect((await scim.get(user())).body).toMatchObject({ userName: 'pat@example.com', active: true });
    expect((await scim.get(group)).body.members).toEqual([expect.objectContaining({ value: scimUserId })]);
    await flagStillOff();
  });
});

describe('the admin API, as an editor', () => {
  const flag = `/api/admin/projects/default/features/${FLAG}`;

  it('refuses JSON Patch paths through a prototype on flags, strategies and variants', async () => {
    const strategies = (await stack.admin.get(`${flag}/environments/development/strategies`)).body as { id: string }[];
    const targets = [
      flag,
      `${flag}/environments/development/strategies/${strategies[0]!.id}`,
      `${flag}/environments/development/variants`,
    ];
    for (const target of targets) {
      for (const path of ['/__proto__/plan', '/constructor/prototype/plan', '/prototype/plan']) {
        const answer = checked(
          `JSON Patch ${path} on ${target}`,
          await editor.patch(target, [{ op: 'add', path, value: 'pro' }]),
        );
        expect(answer.status).toBe(400);
      }
      for (const object of POLLUTING_OBJECTS) {
        const answer = checked(
          `JSON Patch value on ${target}`,
          await editor.call('PATCH', target, `[{"op":"add","path":"/description","value":${object}}]`),
        );
        expect(answer.status).toBe(400);
      }
    }
    expect((await stack.admin.get(flag)).body.description ?? '').toBe('');
  });

  it('refuses such keys in every JSON body: import, addon parameters, strategies, the playground', async () => {
    for (const object of POLLUTING_OBJECTS) {
      const imports = `{"project":"default","environment":"development","data":{"features":[{"name":"imported","type":"release"}],"featureStrategies":[{"name":"default","featureName":"imported","constraints":[],"parameters":${object}}],"featureEnvironments":[],"tagTypes":[],"featureTags":[],"contextFields":[],"segments":[],"dependencies":[]}}`;
      expect(checked('import', await editor.call('POST', '/api/admin/features-batch/import', imports)).status).toBe(
        400,
      );
      const addon = `{"provider":"webhook","enabled":true,"events":["feature-created"],"parameters":${object}}`;
      expect(checked('addon parameters', await stack.admin.call('POST', '/api/admin/addons', addon)).status).toBe(400);
      const strategy = `{"name":"default","parameters":${object},"constraints":[]}`;
      expect(
        checked(
          'strategy parameters',
          await editor.call('POST', `${flag}/environments/development/strategies`, strategy),
        ).status,
      ).toBe(400);
      const played = `{"environment":"development","projects":"*","context":{"appName":"x","properties":${object}}}`;
      expect(checked('playground context', await editor.call('POST', '/api/admin/playground', played)).status).toBe(
        400,
      );
    }
    for (const object of DATA_OBJECTS) {
      checked(
        'import with data keys',
        await editor.call(
          'POST',
          '/api/admin/features-batch/validate',
          `{"project":"default","environment":"development","data":{"features":[{"name":"imported","type":"release"}],"featureStrategies":[{"name":"default","featureName":"imported","constraints":[],"parameters":${object}}],"featureEnvironments":[],"tagTypes":[],"featureTags":[],"contextFields":[],"segments":[],"dependencies":[]}}`,
        ),
      );
      // On another flag: a strategy without constraints would rightly turn it on for everyone.
      checked(
        'strategy with data keys',
        await editor.call(
          'POST',
          `${SCRATCH}/environments/development/strategies`,
          `{"name":"flexibleRollout","parameters":${object},"constraints":[]}`,
        ),
      );
      checked(
        'playground with data keys',
        await editor.call(
          'POST',
          '/api/admin/playground',
          `{"environment":"development","projects":"*","context":{"appName":"x","properties":${object}}}`,
        ),
      );
    }
    // As plain values under those names they are data, and grant nothing.
    const named = await editor.post('/api/admin/playground', {
      environment: 'development',
      projects: '*',
      context: {
        appName: 'x',
        userId: 'u',
        constructor: 'pro',
        properties: { prototype: 'pro', toString: 'pro', valueOf: 'pro' },
      },
    });
    checked('playground with plain values under prototype names', named);
    expect(
      (named.body.features as { name: string; isEnabled: boolean }[]).find((feature) => feature.name === FLAG)
        ?.isEnabled,
    ).toBe(false);
    expect((await stack.admin.get('/api/admin/addons')).body.addons).toEqual([]);
    await flagStillOff();
  });
});

describe('the SDK edge, as an SDK token', () => {
  it('ignores context parameters named __proto__ and refuses bodies with such keys', async () => {
    const sdk = httpClient(stack.url, { authorization: frontendToken });
    const queries = [
      '__proto__[plan]=pro',
      '__proto__=pro',
      'properties[__proto__]=pro',
      'properties[__proto__][plan]=pro',
      'constructor[prototype][plan]=pro',
      'constructor=pro&prototype=pro&toString=pro',
    ];
    for (const query of queries) {
      const answer = checked(`GET /api/frontend?${query}`, await sdk.get(`/api/frontend?userId=u&${query}`));
      expect(answer.status).toBe(200);
      expect((answer.body.toggles as { name: string }[]).map((toggle) => toggle.name)).not.toContain(FLAG);
    }
    for (const object of POLLUTING_OBJECTS) {
      expect(
        checked(
          'POST /api/frontend',
          await sdk.call('POST', '/api/frontend', `{"context":{"userId":"u","properties":${object}}}`),
        ).status,
      ).toBe(400);
      expect(
        checked('POST /api/frontend root', await sdk.call('POST', '/api/frontend', `{"context":${object}}`)).status,
      ).toBe(400);
      expect(
        checked('OFREP bulk', await sdk.call('POST', '/ofrep/v1/evaluate/flags', `{"context":${object}}`)).status,
      ).toBe(400);
      expect(
        checked(
          'OFREP one',
          await sdk.call(
            'POST',
            `/ofrep/v1/evaluate/flags/${FLAG}`,
            `{"context":{"targetingKey":"u","properties":${object}}}`,
          ),
        ).status,
      ).toBe(400);
    }
    // OpenFeature tracking walks an event's context the same way, to evaluate the flags it names.
    const track = (context: string) =>
      sdk.call(
        'POST',
        '/api/frontend/track',
        `{"events":[{"name":"proto_events","context":${context},"flags":["${FLAG}"]}]}`,
      );
    for (const object of POLLUTING_OBJECTS) {
      expect(checked('tracking', await track(object)).status).toBe(400);
    }
    for (const object of DATA_OBJECTS) expect(checked('tracking with data keys', await track(object)).status).toBe(202);
    for (const object of DATA_OBJECTS) {
      checked(
        'POST /api/frontend with data keys',
        await sdk.call('POST', '/api/frontend', `{"context":{"userId":"u","properties":${object}}}`),
      );
      checked('OFREP with data keys', await sdk.call('POST', '/ofrep/v1/evaluate/flags', `{"context":${object}}`));
    }
    const plain = checked(
      'OFREP plain values',
      await sdk.post(`/ofrep/v1/evaluate/flags/${FLAG}`, {
        context: { targetingKey: 'u', constructor: 'pro', prototype: 'pro', toString: 'pro' },
      }),
    );
    expect(plain.body.value).toBe(false);
    await flagStillOff();
  });

  it('refuses metrics whose impact labels or variant counts reach a prototype, and keeps plain ones as data', async () => {
    const sdk = httpClient(stack.url, { authorization: clientToken });
    const bucket = {
      start: new Date().toISOString(),
      stop: new Date().toISOString(),
      toggles: { [FLAG]: { yes: 1, no: 2, variants: {} } },
    };
    for (const object of POLLUTING_OBJECTS) {
      const body = `{"appName":"proto-app","instanceId":"i","bucket":${JSON.stringify(bucket)},"impactMetrics":[{"name":"checkouts","help":"x","type":"counter","samples":[{"labels":${object},"value":1}]}]}`;
      expect(checked('impact labels', await sdk.call('POST', '/api/client/metrics', body)).status).toBe(400);
      const variants = `{"appName":"proto-app","instanceId":"i","bucket":{"start":"${bucket.start}","stop":"${bucket.stop}","toggles":{"${FLAG}":{"yes":1,"no":0,"variants":${object}}}}}`;
      expect(checked('variant counts', await sdk.call('POST', '/api/client/metrics', variants)).status).toBe(400);
    }
    const plain = await sdk.post('/api/client/metrics', {
      appName: 'proto-app',
      instanceId: 'i',
      bucket: { ...bucket, toggles: { [FLAG]: { yes: 1, no: 0, variants: { constructor: 1, toString: 2 } } } },
      impactMetrics: [
        {
          name: 'proto_checkouts',
          help: 'x',
          type: 'counter',
          samples: [{ labels: { constructor: 'a', toString: 'b', prototype: 'c' }, value: 3 }],
        },
      ],
    });
    expect(checked('plain labels', plain).status).toBe(202);
    const series = await eventually(
      async () => {
        const answer = await stack.admin.get(
          '/api/admin/impact-metrics/?metricName=unleash_counter_proto_checkouts&range=hour&aggregationMode=count&labels=%7B%22constructor%22%3A%5B%22a%22%5D%7D',
        );
        return answer.status === 200 && (answer.body.series as unknown[]).length > 0 && answer;
      },
      { timeoutMs: 20_000 },
    );
    checked('impact query', series);
    for (const object of POLLUTING_OBJECTS) {
      expect(
        checked(
          'impact query labels',
          await stack.admin.get(
            `/api/admin/impact-metrics/?metricName=unleash_counter_proto_checkouts&range=hour&aggregationMode=count&labels=${encodeURIComponent(object)}`,
          ),
        ).status,
      ).toBe(400);
    }
    await flagStillOff();
  });
});

describe('signals and MCP', () => {
  it('refuses a signal body with such keys', async () => {
    const endpoint = await stack.admin.post('/api/admin/signal-endpoints', { name: 'proto-alerts' });
    const secret = (
      await stack.admin.post(`/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, { name: 'sender' })
    ).body.token as string;
    const sender = httpClient(stack.url, { authorization: `Bearer ${secret}` });
    for (const object of POLLUTING_OBJECTS.slice(0, 2)) {
      expect(
        checked(
          'signal',
          await sender.call('POST', '/api/signal-endpoint/proto-alerts', `{"alert":${object}}`, {
            'content-type': 'text/plain',
          }),
        ).status,
      ).toBe(400);
    }
  });

  it("refuses MCP tool arguments with such keys, and a tool's context under those names grants nothing", async () => {
    expect((await stack.admin.put('/api/admin/remote-mcp/settings', { enabled: true })).status).toBe(204);
    const pat = (
      await editor.post('/api/admin/user/tokens', {
        description: 'agent',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      })
    ).body.secret as string;
    const mcp = httpClient(stack.url, {
      authorization: `Bearer ${pat}`,
      accept: 'application/json, text/event-stream',
    });
    for (const object of POLLUTING_OBJECTS) {
      const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"evaluate_flags","arguments":{"environment":"development","context":${object}}}}`;
      expect(checked('MCP arguments', await mcp.call('POST', '/api/admin/mcp', body)).status).toBe(400);
    }
    const client = new Client({ name: 'proto-agent', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/api/admin/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${pat}` } },
      }),
    );
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const evaluate = tools.find((name) => name.includes('evaluate'))!;
    const answer = await client.callTool({
      name: evaluate,
      arguments: {
        environment: 'development',
        flag: FLAG,
        context: { userId: 'u', properties: { constructor: 'pro', prototype: 'pro', plan: 'basic' } },
      },
    });
    expect(answer.isError ?? false).toBe(false);
    expect(answer.structuredContent).toMatchObject({ flags: [{ name: FLAG, enabled: false }] });
    await client.close();
    untouched();
    await flagStillOff();
  });

  it('tried every place, and none answered a 5xx', () => {
    expect(seen.length).toBeGreaterThan(100);
    expect(seen.filter((entry) => entry.status >= 500)).toEqual([]);
  });
});
