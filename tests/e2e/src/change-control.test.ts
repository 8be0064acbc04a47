import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  eventually,
  httpClient,
  loginAs,
  sampleOf,
  startTestStack,
  type HttpClient,
  type TestStack,
} from '@bunting/test-stack';

/**
 * Change control that no route can forget: every state-changing operation of the API document, called directly
 * by an editor and by a service account with the Admin role against a project whose production requires change
 * requests, leaves production as it was. The operations are read from /docs/openapi.json, so a route added
 * tomorrow is tried too. Bodies are the ones a user would send for the operations that change configuration, and a
 * sample of the documented schema for the rest.
 */
let stack: TestStack;
let document: {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: object }> } }>>;
  components?: { schemas?: Record<string, object> };
};
const project = 'gated';
const base = `/api/admin/projects/${project}`;
const fixture = {
  strategyId: '',
  segmentId: 0,
  developmentStrategyId: '',
  templateId: '',
  planId: '',
  milestones: [] as string[],
  safeguardId: '',
};

const SAFEGUARD = {
  impactMetric: {
    metricName: 'unleash_counter_errors',
    timeRange: 'hour',
    aggregationMode: 'count',
    labelSelectors: {},
  },
  triggerCondition: { operator: '>', threshold: 3 },
};

/** What users would send to the operations that change what an environment serves. */
function bodyFor(method: string, path: string): unknown {
  const strategy = {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'served' },
    constraints: [],
  };
  const variant = { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' };
  const bodies: Record<string, unknown> = {
    'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies': strategy,
    'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}': {
      ...strategy,
      disabled: true,
    },
    'PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}': [
      { op: 'replace', path: '/disabled', value: true },
    ],
    'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order':
      [{ id: fixture.strategyId, sortOrder: 7 }],
    'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants': [variant],
    'PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants': [
      { op: 'add', path: '/1', value: { ...variant, name: 'green' } },
    ],
    'PUT /api/admin/projects/{projectId}/features/{featureName}/variants': [variant],
    'PATCH /api/admin/projects/{projectId}/features/{featureName}/variants': [
      { op: 'add', path: '/1', value: { ...variant, name: 'green' } },
    ],
    'PUT /api/admin/projects/{projectId}/features/{featureName}/variants-batch': {
      variants: [variant],
      environments: ['production'],
    },
    'POST /api/admin/projects/{projectId}/bulk_features/environments/{environment}/on': {
      features: ['served', 'parent'],
    },
    'POST /api/admin/projects/{projectId}/bulk_features/environments/{environment}/off': {
      features: ['served', 'parent'],
    },
    'POST /api/admin/projects/{projectId}/archive': { features: ['served'] },
    'POST /api/admin/projects/{projectId}/features/{child}/dependencies': { feature: 'other-parent' },
    'PUT /api/admin/segments/{id}': {
      name: 'watched',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['someone-else'] }],
    },
    'POST /api/admin/features-batch/import': {
      project,
      environment: 'production',
      data: {
        features: [{ name: 'served', type: 'release' }],
        featureStrategies: [{ name: 'default', featureName: 'served', constraints: [], parameters: {} }],
        featureEnvironments: [{ name: 'served', featureName: 'served', environment: 'production', enabled: false }],
        tagTypes: [],
        featureTags: [],
        contextFields: [],
        segments: [],
        dependencies: [],
      },
    },
    'POST /api/admin/environments/{name}/off': undefined,
    'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans': {
      templateId: fixture.templateId,
    },
    'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans': {
      templateId: fixture.templateId,
    },
    'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/progressions/{sourceMilestoneId}':
      { targetMilestone: fixture.milestones[1], transitionCondition: { intervalMinutes: 5 } },
    'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards':
      SAFEGUARD,
    'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans/{planId}/safeguards':
      SAFEGUARD,
    'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/safeguards': SAFEGUARD,
    // What SDKs are given of the flag itself: its type, impression data and staleness; and an archived flag revived.
    'PUT /api/admin/projects/{projectId}/features/{featureName}': {
      type: 'kill-switch',
      description: 'changed',
      impressionData: true,
      stale: true,
    },
    'PATCH /api/admin/projects/{projectId}/features/{featureName}': [
      { op: 'replace', path: '/stale', value: true },
      { op: 'replace', path: '/impressionData', value: true },
    ],
    'POST /api/admin/projects/{projectId}/stale': { features: ['served'], stale: true },
    'POST /api/admin/projects/{projectId}/revive': { features: ['retired'] },
  };
  const key = `${method} ${path}`;
  if (key in bodies) return bodies[key];
  return sampleOf(
    document.paths[path]?.[method.toLowerCase()]?.requestBody?.content['application/json']?.schema,
    document.components?.schemas,
  );
}

/** The document's path with its parameters filled in with the fixture's names. */
function concrete(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    switch (name) {
      case 'projectId':
        return project;
      case 'featureName':
      case 'child':
        return path.includes('/revive') ? 'retired' : 'served';
      case 'parent':
        return 'parent';
      case 'environment':
        return 'production';
      case 'strategyId':
        return fixture.strategyId;
      case 'templateId':
        return fixture.templateId;
      case 'planId':
        return fixture.planId;
      // Starting milestone 2, or a progression from milestone 1.
      case 'milestoneId':
        return fixture.milestones[1]!;
      case 'sourceMilestoneId':
        return fixture.milestones[0]!;
      case 'safeguardId':
        return fixture.safeguardId;
      case 'name':
        return path.startsWith('/api/admin/environments') ? 'production' : 'sample';
      case 'id':
        return path.startsWith('/api/admin/segments') ? String(fixture.segmentId) : '1';
      default:
        return 'sample';
    }
  });
}

/**
 * What SDKs in the gated project's production are served for the fixture's flags, and what decides it, as the
 * admin API reads it now. A flag created there (off) or an environment added elsewhere changes nothing of it, as
 * in Unleash, where neither needs a change request.
 */
async function production() {
  const ours = (entry: { name?: string; featureName?: string; feature?: string }) =>
    FLAGS.includes(entry.featureName ?? entry.feature ?? entry.name ?? '');
  // All read at once: this runs after every one of some hundreds of operations, and the reads do not depend on each other.
  const [exported, projectView, globalProduction, segment, planList, flags] = await Promise.all([
    stack.admin.post('/api/admin/features-batch/export', { project, environment: 'production' }).then((r) => r.body),
    stack.admin.get(base).then((r) => r.body),
    stack.admin.get('/api/admin/environments/production').then((r) => r.body),
    stack.admin.get(`/api/admin/segments/${fixture.segmentId}`).then((r) => r.body),
    stack.admin.get(`${base}/features/served/environments/production/release-plans`).then((r) => r.body),
    // The flags' own fields SDKs are given (type, impression data, staleness), and whether the archived one is back.
    Promise.all(
      [...FLAGS, 'retired'].map(async (name) => {
        const flag = (await stack.admin.get(`${base}/features/${name}`)).body as {
          type?: string;
          impressionData?: boolean;
          stale?: boolean;
          archived?: boolean;
        };
        return {
          name,
          type: flag.type,
          impressionData: flag.impressionData,
          stale: flag.stale,
          archived: flag.archived,
        };
      }),
    ),
  ]);
  const environments = projectView.environments.filter(
    (entry: { environment: string }) => entry.environment === 'production',
  );
  // A safeguard's readings (when it last read its metric) move on their own; what it watches and does does not.
  const plans = JSON.parse(JSON.stringify(planList), (key, value: unknown) =>
    key === 'evaluatedAt' || key === 'lastError' ? undefined : value,
  );
  return JSON.stringify({
    flags,
    plans,
    features: exported.features?.filter(ours).map((feature: { name: string }) => feature.name),
    strategies: exported.featureStrategies?.filter(ours),
    environments: exported.featureEnvironments?.filter(ours),
    dependencies: exported.dependencies?.filter(ours),
    projectEnvironments: environments,
    enabled: globalProduction.enabled,
    segment: segment.constraints,
  });
}
const FLAGS = ['served', 'parent', 'other-parent'];

beforeAll(async () => {
  stack = await startTestStack();
  const { admin } = stack;
  await admin.post('/api/admin/projects', { id: project, name: 'Gated' });
  for (const name of [...FLAGS, 'retired']) await admin.post(`${base}/features`, { name });
  // An archived flag, which reviving would serve again.
  await admin.post(`${base}/features/retired/environments/production/on`);
  expect((await admin.delete(`${base}/features/retired`)).status).toBeLessThan(300);
  fixture.segmentId = (
    await admin.post('/api/admin/segments', {
      name: 'watched',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['ada'] }],
    })
  ).body.id;
  fixture.strategyId = (
    await admin.post(`${base}/features/served/environments/production/strategies`, {
      name: 'default',
      segments: [fixture.segmentId],
    })
  ).body.id;
  await admin.post(`${base}/features/served/environments/production/strategies`, {
    name: 'userWithId',
    parameters: { userIds: 'grace' },
  });
  await admin.put(`${base}/features/served/environments/production/variants`, [
    { name: 'red', weight: 1000, weightType: 'variable', stickiness: 'default' },
  ]);
  await admin.post(`${base}/features/served/dependencies`, { feature: 'parent' });
  await admin.post(`${base}/features/served/environments/production/on`);
  // A release plan in production, with a progression and a safeguard, before change requests are switched on there.
  const template = await admin.post('/api/admin/release-plan-templates', {
    name: 'Two steps',
    milestones: [
      {
        name: 'Some',
        transitionCondition: { intervalMinutes: 60 },
        strategies: [{ name: 'flexibleRollout', parameters: { rollout: '10' } }],
      },
      { name: 'All', strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100' } }] },
    ],
  });
  fixture.templateId = template.body.id;
  const plan = await admin.post(`${base}/features/served/environments/production/release-plans`, {
    templateId: fixture.templateId,
  });
  fixture.planId = plan.body.id;
  fixture.milestones = plan.body.milestones.map((milestone: { id: string }) => milestone.id);
  fixture.safeguardId = (
    await admin.put(
      `${base}/features/served/environments/production/release-plans/${fixture.planId}/safeguards`,
      SAFEGUARD,
    )
  ).body.id;
  expect(
    (
      await admin.put(`${base}/environments/production/change-requests/config`, {
        changeRequestsEnabled: true,
        requiredApprovals: 1,
      })
    ).status,
  ).toBe(204);
  await admin.post('/api/admin/user-admin', { username: 'ed', password: 'a-long-password', rootRole: 'Editor' });
  const response = await stack.anonymous.get('/docs/openapi.json');
  document = response.body;
}, 60_000);
afterAll(() => stack?.dispose());

type Outcome = { operation: string; status: number; gated: boolean };

/** Calls every state-changing operation as `caller`; fails on any that changed production, and tells how each ended. */
async function callEveryOperation(caller: HttpClient, skip: (path: string) => boolean): Promise<Outcome[]> {
  const expected = await production();
  const changed: string[] = [];
  const outcomes: Outcome[] = [];
  const operations = Object.entries(document.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })))
    .filter(({ method, path }) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) && !skip(path))
    // Deletions last, so what they remove (when allowed) is not missing for the others.
    .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
  for (const { method, path } of operations) {
    const reply = await caller.call(method, concrete(path), bodyFor(method, path));
    const operation = `${method} ${path}`;
    expect(reply.status, `${operation}: ${reply.text.slice(0, 300)}`).toBeLessThan(500);
    outcomes.push({
      operation,
      status: reply.status,
      gated: reply.status === 403 && String(reply.body?.message).startsWith('Change requests are on'),
    });
    if (process.env.DEBUG_CC) console.log(operation, reply.status, reply.text.slice(0, 160));
    const now = await production();
    if (now !== expected) changed.push(`${operation} -> ${reply.status}`);
    expect(changed).toEqual([]);
  }
  return outcomes;
}

/** The operations that change production directly, each of which must have met the gate (not a bad body). */
const CONFIGURATION_OPERATIONS = [
  'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off',
  'POST /api/admin/projects/{projectId}/bulk_features/environments/{environment}/off',
  'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies',
  'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
  'PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
  'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
  'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order',
  'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants',
  'PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants',
  'PUT /api/admin/projects/{projectId}/features/{featureName}/variants-batch',
  'POST /api/admin/projects/{projectId}/archive',
  'DELETE /api/admin/projects/{projectId}/features/{featureName}',
  'POST /api/admin/projects/{projectId}/features/{child}/dependencies',
  'DELETE /api/admin/projects/{projectId}/features/{child}/dependencies',
  'DELETE /api/admin/projects/{projectId}/features/{child}/dependencies/{parent}',
  'POST /api/admin/features-batch/import',
  'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}',
  'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans/{planId}',
  'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/milestones/{milestoneId}/start',
  'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans/{planId}/milestones/{milestoneId}/start',
  'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/progressions/{sourceMilestoneId}',
  'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/progressions/{sourceMilestoneId}',
  'PUT /api/admin/projects/{projectId}/features/{featureName}',
  'PATCH /api/admin/projects/{projectId}/features/{featureName}',
  'POST /api/admin/projects/{projectId}/stale',
  'POST /api/admin/projects/{projectId}/revive',
  'POST /api/admin/archive/revive/{featureName}',
  'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards',
  'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards/{safeguardId}',
  'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans/{planId}/safeguards',
  'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans/{planId}/safeguards/{safeguardId}',
];

describe('change control over every state-changing operation of the API document', () => {
  it('an editor changes nothing in a production that requires change requests', { timeout: 180_000 }, async () => {
    const editor = await loginAs(stack.url, 'ed', 'a-long-password');
    // Signing out or changing one's own password would end the session half-way through.
    const ownSession = (path: string) => /^\/(auth|logout)|^\/api\/admin\/user\//.test(path);
    const outcomes = await callEveryOperation(editor, ownSession);
    const gated = outcomes.filter((outcome) => outcome.gated).map((outcome) => outcome.operation);
    expect(gated).toEqual(expect.arrayContaining(CONFIGURATION_OPERATIONS));
    // The global segment used there is not an editor's to change (a root permission), gated or not.
    expect(outcomes.find((outcome) => outcome.operation === 'PUT /api/admin/segments/{id}')?.status).toBe(403);
  });

  it(
    'a service account with the Admin role changes nothing there either: it is not a person who may skip them',
    { timeout: 180_000 },
    async () => {
      const account = await stack.admin.post('/api/admin/service-account', { username: 'ops-bot', rootRole: 'Admin' });
      const token = await stack.admin.post(`/api/admin/service-account/${account.body.id}/token`, {
        description: 'ops',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      const bot = httpClient(stack.url, { authorization: token.body.secret });
      // Identity administration is left out (the account could delete itself or its token half-way through), and so is
      // maintenance mode, which makes every later write, the test's reads through the export included, answer 503.
      const identity = (path: string) =>
        /^\/api\/admin\/(user-admin|service-account|user\/|api-tokens|roles|groups|auth|invite|personal-access|maintenance)/.test(
          path,
        ) || /^\/(auth|logout)/.test(path);
      const outcomes = await callEveryOperation(bot, identity);
      const gated = outcomes.filter((outcome) => outcome.gated).map((outcome) => outcome.operation);
      expect(gated).toEqual(
        expect.arrayContaining([
          ...CONFIGURATION_OPERATIONS,
          'PUT /api/admin/segments/{id}',
          'POST /api/admin/environments/{name}/off',
          'DELETE /api/admin/projects/{projectId}/environments/{environment}',
        ]),
      );
    },
  );
});

// Personal state a read-only user keeps (their favorites and their own tokens); nothing of the instance's.
const PERSONAL_EVENTS = new Set([
  'feature-favorited',
  'feature-unfavorited',
  'project-favorited',
  'project-unfavorited',
  'pat-created',
  'pat-deleted',
]);

describe('the read-only root role, Reader', () => {
  it(
    'changes nothing anywhere, though a project role and an Admin group say otherwise, by session or by token',
    { timeout: 180_000 },
    async () => {
      const { admin } = stack;
      const reader = await admin.post('/api/admin/user-admin', {
        username: 'rita',
        password: 'a-long-password',
        rootRole: 'Reader',
      });
      expect(reader.status).toBe(201);
      const roles = (await admin.get('/api/admin/user-admin')).body.rootRoles as {
        id: number;
        name: string;
        type: string;
      }[];
      expect(roles.find((role) => role.name === 'Reader')).toMatchObject({ id: reader.body.rootRole, type: 'root' });
      expect((await admin.post(`${base}/access`, { roles: [4], users: [reader.body.id] })).status).toBeLessThan(300);
      expect(
        (
          await admin.post('/api/admin/groups', {
            name: 'Admins',
            rootRole: 1,
            users: [{ user: { id: reader.body.id } }],
          })
        ).status,
      ).toBe(201);
      // The built-in role is not for changing.
      expect(
        (
          await admin.put(`/api/admin/roles/${reader.body.rootRole}`, {
            name: 'Reader',
            type: 'root-custom',
            permissions: [{ name: 'CREATE_FEATURE' }],
          })
        ).status,
      ).toBe(400);

      const session = await loginAs(stack.url, 'rita', 'a-long-password');
      const pat = await session.post('/api/admin/user/tokens', {
        description: 'mine',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      expect(pat.status).toBe(201);
      const byToken = httpClient(stack.url, { authorization: pat.body.secret });
      const before = (await admin.get('/api/admin/search/events?from=IS:2000-01-01&limit=1')).body.total as number;

      const ownSession = (path: string) => /^\/(auth|logout)|^\/api\/admin\/user\//.test(path);
      const outcomes = await callEveryOperation(session, ownSession);
      expect(
        outcomes
          .filter(
            (outcome) =>
              outcome.status < 300 &&
              !/favorites|splash|feedback|playground|search|validate|export/.test(outcome.operation),
          )
          .map((outcome) => outcome.operation),
      ).toEqual([]);
      for (const [method, path, body] of [
        ['POST', `${base}/features`, { name: 'by-token' }],
        ['POST', `${base}/features/served/environments/development/on`, undefined],
        [
          'POST',
          '/api/admin/api-tokens',
          { tokenName: 'x', type: 'client', environment: 'development', projects: ['*'] },
        ],
        ['POST', '/api/admin/projects', { id: 'mine', name: 'Mine' }],
      ] as const) {
        expect((await byToken.call(method, path, body)).status, `${method} ${path}`).toBe(403);
      }
      // An agent signed in with the user's token gets no further: a changing tool is refused, reading works.
      const agent = new Client({ name: 'read-only-agent', version: '1.0.0' });
      await agent.connect(
        new StreamableHTTPClientTransport(new URL(`${stack.url}/api/admin/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${pat.body.secret}` } },
        }),
      );
      const created = (await agent.callTool({
        name: 'create_flag',
        arguments: { project, name: 'by-agent' },
      })) as CallToolResult;
      expect(created.isError).toBe(true);
      const toggled = (await agent.callTool({
        name: 'toggle_flag_environment',
        arguments: { project, flag: 'served', environment: 'development', enabled: false },
      })) as CallToolResult;
      expect(toggled.isError).toBe(true);
      expect(
        ((await agent.callTool({ name: 'list_flags', arguments: { project } })) as CallToolResult).isError,
      ).toBeFalsy();
      await agent.close();
      // What reached the log in its name while it tried (the test's own reads export as admin): its own favorites
      // and tokens at most.
      const written = (await writtenSince(before)).filter((event) => event.createdBy === 'rita');
      expect(written.filter((event) => !PERSONAL_EVENTS.has(event.type))).toEqual([]);
    },
  );
});

/** The events written since the log held `before`, once all have reached it (a marker written last is awaited). */
async function writtenSince(before: number): Promise<{ type: string; createdBy: string }[]> {
  const marker = `marker-${before}`;
  await stack.admin.post('/api/admin/tags', { type: 'simple', value: marker });
  const total = await eventually(
    async () => {
      const found = (await stack.admin.post('/api/admin/events/search', { query: marker })).body.events as unknown[];
      return (
        found.length === 1 &&
        ((await stack.admin.get('/api/admin/search/events?from=IS:2000-01-01&limit=1')).body.total as number)
      );
    },
    { timeoutMs: 20_000 },
  );
  const newest = (await stack.admin.get(`/api/admin/search/events?from=IS:2000-01-01&limit=${total - before}`)).body
    .events as { type: string; createdBy: string; data: { value?: string } | null }[];
  return newest.filter((event) => event.data?.value !== marker);
}
