import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { initialize, type Unleash } from 'unleash-client';
import { UnleashClient } from 'unleash-proxy-client';
import {
  eventually,
  httpClient,
  startTestStack,
  type HttpClient,
  type TestStack,
  stopUnleashSdk,
  untilClientServes,
} from '@bunting/test-stack';

/**
 * The unmodified Unleash SDKs against Bunting: the Node server SDK fed by /api/client/features, and the
 * browser SDK (run in Node) against /api/frontend. Their answers are compared case by case with each other.
 */
let stack: TestStack;
let sdk: Unleash;
let frontend: HttpClient;
const clientToken = 'default:development.sdk-client';
const frontendToken = 'default:development.sdk-frontend';
const base = '/api/admin/projects/default/features';
const sdkErrors: unknown[] = [];

async function configure(admin: HttpClient) {
  const segment = await admin.post('/api/admin/segments', {
    name: 'nordics',
    constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE', 'DK'] }],
  });
  const flags: [string, object[], object?][] = [
    ['plain-on', [{ name: 'default' }]],
    [
      'half-of-users',
      [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: 'half' } }],
    ],
    ['listed-users', [{ name: 'userWithId', parameters: { userIds: 'u1, u7,u13' } }]],
    [
      'constrained',
      [
        {
          name: 'flexibleRollout',
          parameters: { rollout: '100' },
          constraints: [
            { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] },
            { contextName: 'age', operator: 'NUM_GT', value: '17' },
            { contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.4.0' },
          ],
        },
      ],
    ],
    ['segmented', [{ name: 'default', segments: [segment.body.id] }]],
    [
      'date-window',
      [
        {
          name: 'default',
          constraints: [{ contextName: 'currentTime', operator: 'DATE_BEFORE', value: '2090-01-01T00:00:00Z' }],
        },
      ],
    ],
    ['office-network', [{ name: 'remoteAddress', parameters: { IPs: '10.0.0.0/8, 192.168.1.7' } }]],
    [
      'strategy-variants',
      [
        {
          name: 'flexibleRollout',
          parameters: { rollout: '100', stickiness: 'default' },
          variants: [
            {
              name: 'left',
              weight: 500,
              weightType: 'variable',
              stickiness: 'default',
              payload: { type: 'string', value: 'L' },
            },
            { name: 'right', weight: 500, weightType: 'variable', stickiness: 'default' },
          ],
        },
      ],
    ],
    ['env-variants', [{ name: 'default' }]],
    ['parent', [{ name: 'flexibleRollout', parameters: { rollout: '60', stickiness: 'userId' } }]],
    ['child', [{ name: 'default' }]],
    [
      'not-in-list',
      [
        {
          name: 'default',
          constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: ['u2', 'u3'], inverted: true }],
        },
      ],
    ],
    // Rollout on the sessionId and variants on the userId: two ids hashed in one request.
    [
      'by-session',
      [
        {
          name: 'flexibleRollout',
          parameters: { rollout: '50', stickiness: 'sessionId', groupId: 'by-session' },
          variants: [
            { name: 'one', weight: 500, weightType: 'variable', stickiness: 'userId' },
            { name: 'two', weight: 500, weightType: 'variable', stickiness: 'userId' },
          ],
        },
      ],
    ],
    [
      'by-country',
      [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'country', groupId: 'by-country' } }],
    ],
    [
      'second-strategy',
      [
        { name: 'userWithId', parameters: { userIds: 'nobody' } },
        { name: 'flexibleRollout', parameters: { rollout: '30', stickiness: 'default', groupId: 'shared-group' } },
      ],
    ],
    // The same constraint list as "constrained": compiled once and shared.
    [
      'shares-constraints',
      [
        {
          name: 'flexibleRollout',
          parameters: { rollout: '70', stickiness: 'userId' },
          constraints: [
            { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] },
            { contextName: 'age', operator: 'NUM_GT', value: '17' },
            { contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.4.0' },
          ],
        },
      ],
    ],
    ['legacy-gradual', [{ name: 'gradualRolloutUserId', parameters: { percentage: '40', groupId: 'legacy' } }]],
    ['overridden', [{ name: 'default' }]],
    // Operators Unleash 8.2 accepts beyond the spec's fifteen, and IN_CIDR, which the SDKs evaluate.
    [
      'pattern-and-range',
      [
        {
          name: 'default',
          constraints: [
            { contextName: 'email', operator: 'REGEX', value: '^USER[0-9]*[02468]@', caseInsensitive: true },
            { contextName: 'appVersion', operator: 'SEMVER_GTE', value: '1.4.1' },
            { contextName: 'appVersion', operator: 'SEMVER_LTE', value: '1.6.0' },
          ],
        },
      ],
    ],
    [
      'office-range',
      [
        {
          name: 'default',
          constraints: [{ contextName: 'remoteAddress', operator: 'IN_CIDR', values: ['10.1.0.0/16', '172.16.0.3'] }],
        },
      ],
    ],
    // Strategy variants without a groupId parameter: the SDKs hash "undefined:<id>".
    [
      'ungrouped-variants',
      [
        {
          name: 'default',
          variants: [
            { name: 'Blue', weight: 500, weightType: 'variable', stickiness: 'userId' },
            { name: 'Green', weight: 500, weightType: 'variable', stickiness: 'userId' },
          ],
        },
      ],
    ],
    // An empty age is present and Number("") is 0, so it is "young".
    ['young', [{ name: 'default', constraints: [{ contextName: 'age', operator: 'NUM_LTE', value: '12' }] }]],
  ];
  for (const [name, strategies] of flags) {
    await admin.post(base, { name });
    for (const strategy of strategies)
      await admin.post(`${base}/${name}/environments/development/strategies`, strategy);
    await admin.post(`${base}/${name}/environments/development/on`);
  }
  await admin.put(`${base}/env-variants/environments/development/variants`, [
    { name: 'a', weight: 0, stickiness: 'userId' },
    { name: 'b', weight: 0, stickiness: 'userId' },
    { name: 'c', weight: 200, weightType: 'fix', stickiness: 'userId', payload: { type: 'json', value: '{"x":1}' } },
  ]);
  await admin.put(`${base}/overridden/environments/development/variants`, [
    {
      name: 'vip',
      weight: 100,
      weightType: 'variable',
      stickiness: 'default',
      overrides: [{ contextName: 'userId', values: ['u3', 'u5'] }],
    },
    { name: 'regular', weight: 900, weightType: 'variable', stickiness: 'default' },
  ]);
  await admin.post(`${base}/child/dependencies`, { feature: 'parent' });
  await admin.post(base, { name: 'switched-later' });
}

const contexts = Array.from({ length: 40 }, (_, index) => ({
  userId: `u${index}`,
  sessionId: `s${index * 7}`,
  remoteAddress: index % 3 === 0 ? `10.1.2.${index}` : `172.16.0.${index}`,
  properties: {
    country: ['NO', 'SE', 'US', 'DE'][index % 4]!,
    email: index % 2 === 0 ? `user${index}@example.com` : `user${index}@other.org`,
    age: index % 7 === 0 ? '' : String(10 + index),
    appVersion: index % 5 === 0 ? '1.3.9' : `1.${4 + (index % 3)}.${index % 2}`,
  },
}));

function frontendQuery(context: (typeof contexts)[number]) {
  const params = new URLSearchParams({
    userId: context.userId,
    sessionId: context.sessionId,
    remoteAddress: context.remoteAddress,
  });
  for (const [name, value] of Object.entries(context.properties)) params.set(`properties[${name}]`, value);
  return `/api/frontend?${params}`;
}

beforeAll(async () => {
  stack = await startTestStack({
    env: { INIT_CLIENT_API_TOKENS: clientToken, INIT_FRONTEND_API_TOKENS: frontendToken },
  });
  frontend = httpClient(stack.url, { authorization: frontendToken });
  await configure(stack.admin);
  await eventually(async () => (await frontend.get('/api/frontend?userId=u1')).body.toggles.length > 5);
  // The SDK edge follows the changes through NATS: the SDK starts once the last of them is served, so that its first
  // fetch and the frontend answers compared below are of the same flags (a lagging feed once gave the SDK `child`
  // without its dependency).
  await untilClientServes(stack.url, clientToken, 'switched-later', { timeoutMs: 20_000 });
  sdk = initialize({
    url: `${stack.url}/api/`,
    appName: 'e2e-node-sdk',
    instanceId: 'e2e-1',
    customHeaders: { Authorization: clientToken },
    refreshInterval: 200,
    metricsInterval: 500,
  });
  sdk.on('error', (error) => sdkErrors.push(error));
  await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));
}, 60_000);

afterAll(async () => {
  stopUnleashSdk(sdk);
  await stack?.dispose();
});

describe('unleash-client (Node server SDK) fed by /api/client/features', () => {
  it('answers every flag and context as /api/frontend does', async () => {
    const flagNames = [
      'plain-on',
      'half-of-users',
      'listed-users',
      'constrained',
      'segmented',
      'date-window',
      'office-network',
      'strategy-variants',
      'env-variants',
      'parent',
      'child',
      'not-in-list',
      'switched-later',
      'unknown-flag',
      'by-session',
      'by-country',
      'second-strategy',
      'shares-constraints',
      'legacy-gradual',
      'overridden',
      'pattern-and-range',
      'office-range',
      'ungrouped-variants',
      'young',
    ];
    let enabledCount = 0;
    const usersIn = new Map<string, number>();
    for (const context of contexts) {
      const answer = await frontend.get(frontendQuery(context));
      const toggles = new Map<string, { variant: { name: string; enabled: boolean; payload?: unknown } }>(
        answer.body.toggles.map((toggle: { name: string }) => [toggle.name, toggle]),
      );
      for (const name of flagNames) {
        const enabled = sdk.isEnabled(name, context);
        expect(enabled, `${name} for ${context.userId}`).toBe(toggles.has(name));
        if (enabled) enabledCount += 1;
        if (enabled) usersIn.set(name, (usersIn.get(name) ?? 0) + 1);
        const variant = sdk.getVariant(name, context);
        const fromFrontend = toggles.get(name)?.variant;
        if (fromFrontend) {
          expect(
            { name: variant.name, enabled: variant.enabled, payload: variant.payload },
            `${name} variant for ${context.userId}`,
          ).toEqual({ name: fromFrontend.name, enabled: fromFrontend.enabled, payload: fromFrontend.payload });
        }
      }
    }
    // Rollouts split the users: some but not all are in.
    for (const name of [
      'half-of-users',
      'by-session',
      'by-country',
      'second-strategy',
      'shares-constraints',
      'legacy-gradual',
      'pattern-and-range',
      'office-range',
      'young',
    ]) {
      expect(usersIn.get(name) ?? 0, name).toBeGreaterThan(0);
      expect(usersIn.get(name) ?? 0, name).toBeLessThan(contexts.length);
    }
    expect(sdk.getVariant('overridden', contexts[3]).name).toBe('vip');
    expect(enabledCount).toBeGreaterThan(contexts.length * 4);
    expect(enabledCount).toBeLessThan(contexts.length * 20);
  });

  it('refreshes after a change and posts its registration and metrics', async () => {
    expect(sdk.isEnabled('switched-later', { userId: 'u1' })).toBe(false);
    await stack.admin.post(`${base}/switched-later/environments/development/on`);
    await eventually(async () => sdk.isEnabled('switched-later', { userId: 'u1' }), { timeoutMs: 5000 });
    const jsm = await jetstreamManager(stack.messaging.nc);
    await eventually(
      async () => {
        const info = await jsm.streams.info(stack.messaging.names.metricsStream);
        return info.state.messages >= 2;
      },
      { timeoutMs: 5000 },
    );
    expect(sdkErrors).toEqual([]);
  });
});

describe('unleash-proxy-client (browser SDK) against /api/frontend', () => {
  it('evaluates, follows context changes, refreshes after a change and sends metrics', async () => {
    const errors: unknown[] = [];
    const client = new UnleashClient({
      url: `${stack.url}/api/frontend`,
      clientKey: frontendToken,
      appName: 'e2e-browser',
      refreshInterval: 1,
      metricsInterval: 1,
      context: { userId: 'u7', properties: { country: 'NO' } },
    });
    client.on('error', (error: unknown) => errors.push(error));
    await client.start();
    expect(client.isEnabled('listed-users')).toBe(true);
    expect(client.isEnabled('segmented')).toBe(true);
    expect(client.isEnabled('unknown-flag')).toBe(false);
    const variant = client.getVariant('strategy-variants');
    expect(['left', 'right']).toContain(variant.name);
    expect(variant.name).toBe(
      sdk.getVariant('strategy-variants', { userId: 'u7', properties: { country: 'NO' } }).name,
    );

    await client.updateContext({ userId: 'u8', properties: { country: 'US' } });
    expect(client.isEnabled('listed-users')).toBe(false);
    expect(client.isEnabled('segmented')).toBe(false);

    await stack.admin.post(`${base}/plain-on/environments/development/off`);
    await eventually(async () => !client.isEnabled('plain-on'), { timeoutMs: 5000 });

    const jsm = await jetstreamManager(stack.messaging.nc);
    const before = (await jsm.streams.info(stack.messaging.names.metricsStream)).state.messages;
    await eventually(
      async () => (await jsm.streams.info(stack.messaging.names.metricsStream)).state.messages > before,
      { timeoutMs: 5000 },
    );
    client.stop();
    expect(errors).toEqual([]);
  }, 30_000);
});
