import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';
import { MetricsMessage } from '@bunting/contracts';
import { createOutbox } from '@bunting/platform';
import { applicationAnnouncer } from './applications/application-events.ts';
import { recordMetrics } from './sdk-metrics/metric-recording.ts';

let stack: TestStack;
let client: HttpClient;
const clientToken = 'alpha:production.insights-client';
const base = '/api/admin/projects/alpha/features';
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

/** Publishes a domain event straight to the stream, to place it in the past. */
async function publishEvent(event: Record<string, unknown>) {
  const { js, names } = stack.messaging;
  const full = {
    uuid: randomUUID(),
    createdBy: 'test',
    createdByUserId: null,
    environment: null,
    project: null,
    featureName: null,
    data: null,
    preData: null,
    tags: [],
    ...event,
  };
  await js.publish(names.eventSubject(String(event.type)), JSON.stringify(full), { msgID: randomUUID() });
  return full;
}

const healthReport = () => stack.admin.get('/api/admin/projects/alpha/health-report');

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: clientToken } });
  client = httpClient(stack.url, { authorization: clientToken });
  await stack.admin.post('/api/admin/projects', { id: 'alpha', name: 'Alpha', description: 'health checked' });
  // Flags made potentially stale by age: operational flags are expected to live 0 days from here on.
  expect((await stack.admin.put('/api/admin/feature-types/operational/lifetime', { lifetimeDays: 0 })).status).toBe(
    200,
  );
  for (const [name, type] of [
    ['fresh', 'release'],
    ['old-news', 'release'],
    ['ops', 'operational'],
    ['gone', 'release'],
    ['shipped', 'release'],
  ]) {
    expect((await stack.admin.post(base, { name, type })).status).toBe(201);
  }
  await stack.admin.patch(`${base}/old-news`, [{ op: 'replace', path: '/stale', value: true }]);
  await stack.admin.delete(`${base}/gone`);
  expect((await stack.admin.post(`${base}/shipped/environments/production/on`)).status).toBe(200);
  const user = await stack.admin.post('/api/admin/user-admin', { username: 'member-one', rootRole: 3 });
  await stack.admin.post('/api/admin/user-admin', { username: 'auditor', rootRole: 'Reader' });
  expect(
    (await stack.admin.post('/api/admin/projects/alpha/access', { roles: [5], users: [{ id: user.body.id }] })).status,
  ).toBe(200);
  expect((await stack.admin.post('/api/admin/projects/alpha/favorites')).status).toBe(200);
  // A flag created three days ago and enabled in production a day later, and activity from the past window.
  await publishEvent({ type: 'feature-created', project: 'alpha', featureName: 'backdated', createdAt: daysAgo(3) });
  await publishEvent({
    type: 'feature-environment-enabled',
    project: 'alpha',
    featureName: 'backdated',
    environment: 'production',
    createdAt: daysAgo(1),
  });
  await publishEvent({ type: 'feature-created', project: 'alpha', featureName: 'ancient', createdAt: daysAgo(45) });
  await publishEvent({ type: 'feature-archived', project: 'alpha', featureName: 'ancient', createdAt: daysAgo(40) });
});
afterAll(() => stack?.dispose());

describe('GET /api/admin/projects/:projectId/health-report', () => {
  it('reports the project, its flags and their health', async () => {
    const reply = await healthReport();
    expect(reply.status).toBe(200);
    const report = reply.body;
    expect(report).toMatchObject({
      version: 1,
      name: 'Alpha',
      description: 'health checked',
      defaultStickiness: 'default',
      mode: 'open',
      featureLimit: null,
      members: 1,
      favorite: true,
      featureNaming: { pattern: null },
      // 4 live flags: one stale, one potentially stale by age.
      staleCount: 1,
      potentiallyStaleCount: 1,
      activeCount: 3,
      health: 50,
      technicalDebt: 50,
    });
    expect(report.features.map((feature: { name: string }) => feature.name).sort()).toEqual([
      'fresh',
      'old-news',
      'ops',
      'shipped',
    ]);
    expect(
      report.features
        .find((feature: { name: string }) => feature.name === 'shipped')
        .environments.find((environment: { name: string }) => environment.name === 'production').enabled,
    ).toBe(true);
    expect(report.environments.map((environment: { environment: string }) => environment.environment)).toEqual([
      'development',
      'production',
    ]);
    expect(report.environments[0]).toEqual({
      environment: 'development',
      changeRequestsEnabled: false,
      defaultStrategy: {
        name: 'flexibleRollout',
        title: null,
        disabled: false,
        sortOrder: 0,
        constraints: [],
        variants: [],
        segments: [],
        parameters: { rollout: '100', stickiness: 'default', groupId: '' },
      },
    });
    expect(Date.parse(report.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('counts the last 30 days and the 30 before them from the event stream', async () => {
    const stats = await eventually(
      async () => {
        const { body } = await healthReport();
        const { stats } = body;
        // The backdated events are published in order; the last of them is the archiving 40 days ago.
        return (
          stats.createdPastWindow === 1 &&
          stats.archivedPastWindow === 1 &&
          stats.createdCurrentWindow === 6 &&
          stats.avgTimeToProdCurrentWindow > 0 &&
          stats
        );
      },
      { timeoutMs: 15_000 },
    );
    expect(stats).toMatchObject({
      createdCurrentWindow: 6,
      createdPastWindow: 1,
      archivedCurrentWindow: 1,
      archivedPastWindow: 1,
      projectMembersAddedCurrentWindow: 1,
    });
    expect(stats.projectActivityCurrentWindow).toBeGreaterThanOrEqual(10);
    expect(stats.projectActivityPastWindow).toBe(2);
    // "backdated" took two days, "shipped" a moment: one day on average.
    expect(stats.avgTimeToProdCurrentWindow).toBeCloseTo(1, 1);
  });

  it('gives the health everywhere projects are listed', async () => {
    const project = await stack.admin.get('/api/admin/projects/alpha');
    expect(project.body).toMatchObject({
      health: 50,
      featureCount: 4,
      staleFeatureCount: 1,
      potentiallyStaleFeatureCount: 1,
      memberCount: 1,
    });
    const list = await stack.admin.get('/api/admin/projects');
    expect(list.body.projects.find((p: { id: string }) => p.id === 'default').health).toBe(100);
  });

  it('answers 404 for an unknown project and 401 without credentials', async () => {
    const missing = await stack.admin.get('/api/admin/projects/nope/health-report');
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    const anonymous = await stack.anonymous.get('/api/admin/projects/alpha/health-report');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.name).toBe('AuthenticationRequired');
    const sdk = await client.get('/api/admin/projects/alpha/health-report');
    expect(sdk.status).toBe(403);
    expect(sdk.body.name).toBe('NoAccessError');
  });
});

describe('GET /api/admin/instance-admin/statistics', () => {
  beforeAll(async () => {
    // One metrics bucket from yesterday, published as if it had arrived then.
    const yesterday = new Date(Date.now() - DAY_MS);
    yesterday.setUTCHours(12, 0, 0, 0);
    const { js, names } = stack.messaging;
    await js.publish(
      names.metricsSubject('client'),
      JSON.stringify({
        kind: 'client-metrics',
        receivedAt: yesterday.toISOString(),
        environment: 'production',
        tokenName: 'test',
        body: {
          appName: 'yesterday-app',
          bucket: {
            start: yesterday.toISOString(),
            stop: yesterday.toISOString(),
            toggles: { shipped: { yes: 3, no: 1, variants: { blue: 2 } } },
          },
        },
      }),
    );
    expect(
      (
        await client.post('/api/client/register', {
          appName: 'checkout',
          instanceId: 'i-1',
          interval: 15000,
          started: new Date().toISOString(),
          strategies: ['default'],
        })
      ).status,
    ).toBe(202);
  });

  it('counts what the instance holds and what it has seen', async () => {
    const statistics = await eventually(
      async () => {
        const { body } = await stack.admin.get('/api/admin/instance-admin/statistics');
        return body.clientApps?.[0].count === 2 && body.previousDayMetricsBucketsCount.enabledCount === 1 && body;
      },
      { timeoutMs: 15_000 },
    );
    expect(statistics).toMatchObject({
      users: 3,
      readOnlyUsers: 1, // the default admin, member-one and auditor (a Reader)
      featureToggles: 4,
      archivedFeatureToggles: 1,
      projects: 2,
      environments: 2,
      groups: 0,
      segments: 0,
      // The five of Unleash's first installs and Reader, the read-only root role.
      roles: 6,
      customRootRoles: 0,
      strategies: 8,
      contextFields: 6,
      apiTokens: { admin: 1, client: 1, frontend: 0 },
      OIDCenabled: false,
      SAMLenabled: false,
      featureExports: 0,
      featureImports: 0,
      previousDayMetricsBucketsCount: { enabledCount: 1, variantCount: 1 },
      clientApps: [
        { range: 'allTime', count: 2 },
        { range: '30d', count: 2 },
        { range: '7d', count: 2 },
      ],
      maxEnvironmentStrategies: 1,
      maxConstraints: 0,
      maxConstraintValues: 0,
      versionOSS: '0.1.0',
    });
    expect(statistics.productionChanges.last30).toBeGreaterThanOrEqual(3);
    expect(statistics.productionChanges.last90).toBeGreaterThanOrEqual(statistics.productionChanges.last30);
    const { sum, ...rest } = statistics;
    expect(sum).toBe(createHash('sha256').update(JSON.stringify(rest)).digest('hex'));
    const again = await stack.admin.get('/api/admin/instance-admin/statistics');
    expect(again.body.instanceId).toBe(statistics.instanceId);
    expect(statistics.instanceId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('follows constraints as they are added', async () => {
    await stack.admin.post(`${base}/fresh/environments/development/strategies`, {
      name: 'default',
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['a', 'b', 'c'] },
        { contextName: 'appName', operator: 'IN', values: ['x'] },
      ],
    });
    await stack.admin.post(`${base}/fresh/environments/development/strategies`, { name: 'default' });
    const { body } = await stack.admin.get('/api/admin/instance-admin/statistics');
    expect(body).toMatchObject({ maxEnvironmentStrategies: 2, maxConstraints: 2, maxConstraintValues: 3 });
  });

  it('is also served as CSV', async () => {
    const reply = await stack.admin.get('/api/admin/instance-admin/statistics/csv');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/csv');
    const [header, values] = String(reply.text).trim().split('\n');
    expect(header!.split(',').slice(0, 3)).toEqual(['instanceId', 'timestamp', 'versionOSS']);
    expect(values).toContain('""enabledCount"":1');
  });
});

describe('GET /api/admin/dashboard/executive and /api/admin/insights', () => {
  beforeAll(async () => {
    expect(
      (
        await client.post('/api/client/metrics', {
          appName: 'checkout',
          instanceId: 'i-1',
          bucket: {
            start: new Date().toISOString(),
            stop: new Date().toISOString(),
            toggles: { shipped: { yes: 7, no: 2 }, fresh: { yes: 0, no: 4 }, unknown: { yes: 1, no: 0 } },
          },
        })
      ).status,
    ).toBe(202);
  });

  it('shows today in every trend', async () => {
    const insights = await eventually(
      async () => {
        const { body } = await stack.admin.get('/api/admin/dashboard/executive');
        return body.metricsSummaryTrends?.some((trend: { totalFlags: number }) => trend.totalFlags === 2) && body;
      },
      { timeoutMs: 15_000 },
    );
    const today = `${new Date().toISOString().slice(0, 10)}T23:59:59.999Z`;
    expect(insights.userTrends.at(-1)).toEqual({ date: today, total: 3, active: 0, inactive: 3 });
    expect(insights.flagTrends.at(-1)).toEqual({ date: today, total: 4, active: 3, stale: 1, potentiallyStale: 1 });
    const alpha = insights.projectFlagTrends.find((trend: { project: string }) => trend.project === 'alpha');
    expect(alpha).toMatchObject({
      date: today,
      health: 50,
      total: 4,
      active: 3,
      stale: 1,
      potentiallyStale: 1,
      users: 1,
    });
    expect(alpha.week).toMatch(/^\d{4}-\d{2}$/);
    expect(alpha.timeToProduction).toBeCloseTo(1, 1);
    // Weekly sums: today's and yesterday's metrics, in one week or two. The flag unknown to admin-api belongs to
    // no project and is left out.
    type Summary = { project: string; date: string; totalYes: number; totalNo: number; totalRequests: number };
    const metrics: Summary[] = insights.metricsSummaryTrends;
    expect(metrics.every((trend) => trend.project === 'alpha')).toBe(true);
    const total = (field: 'totalYes' | 'totalNo' | 'totalRequests') =>
      metrics.reduce((sum, trend) => sum + trend[field], 0);
    expect([total('totalYes'), total('totalNo'), total('totalRequests')]).toEqual([10, 7, 17]);
    expect(metrics.at(-1)).toMatchObject({
      week: alpha.week,
      date: today,
      project: 'alpha',
      totalFlags: 2,
      totalEnvironments: 1,
    });
    const production = insights.environmentTypeTrends.filter(
      (trend: { environmentType: string }) => trend.environmentType === 'production',
    );
    expect(
      production.reduce((sum: number, trend: { totalUpdates: number }) => sum + trend.totalUpdates, 0),
    ).toBeGreaterThanOrEqual(3);
  });

  it('limits /api/admin/insights to the days asked for and checks them', async () => {
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    const past = await stack.admin.get(`/api/admin/insights?from=2024-06-01&to=${yesterday}`);
    expect(past.status).toBe(200);
    expect(past.body.userTrends).toEqual([]);
    expect(
      past.body.metricsSummaryTrends.every((trend: { date: string }) => trend.date <= `${yesterday}T23:59:59.999Z`),
    ).toBe(true);
    for (const query of ['from=2026-13-01', 'from=2026-02-02&to=2026-02-01', 'to=yesterday']) {
      const bad = await stack.admin.get(`/api/admin/insights?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.name).toBe('ValidationError');
    }
  });
});

describe('applications and flag metrics (Unleash OSS endpoints)', () => {
  it('lists the applications seen, with what they registered and where their flags live', async () => {
    const { body } = await eventually(async () => {
      const reply = await stack.admin.get('/api/admin/metrics/applications');
      return (
        reply.body.applications?.find((a: { appName: string }) => a.appName === 'checkout')?.usage.length > 0 && reply
      );
    });
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(body.applications.find((a: { appName: string }) => a.appName === 'checkout')).toEqual({
      appName: 'checkout',
      strategies: ['default'],
      usage: [{ project: 'alpha', environments: ['production'] }],
    });
    const found = await stack.admin.get('/api/admin/metrics/applications?query=check&limit=5');
    expect(found.body).toEqual({ total: 1, applications: [expect.objectContaining({ appName: 'checkout' })] });
    expect((await stack.admin.get('/api/admin/metrics/applications/checkout')).body.appName).toBe('checkout');
    expect((await stack.admin.get('/api/admin/metrics/applications/nobody')).status).toBe(404);
    expect((await stack.admin.get('/api/admin/metrics/applications?limit=0')).status).toBe(400);
  });

  it("gives a flag's evaluations hour by hour", async () => {
    const { body } = await stack.admin.get('/api/admin/client-metrics/features/shipped');
    expect(body.version).toBe(1);
    const byApp = Object.fromEntries(body.data.map((row: { appName: string }) => [row.appName, row]));
    expect(byApp.checkout).toMatchObject({
      featureName: 'shipped',
      environment: 'production',
      yes: 7,
      no: 2,
      variants: {},
    });
    expect(byApp['yesterday-app']).toMatchObject({ yes: 3, no: 1, variants: { blue: 2 } });
    const lastHour = await stack.admin.get('/api/admin/client-metrics/features/shipped/raw?hoursBack=1');
    expect(lastHour.body.data.map((row: { appName: string }) => row.appName)).toEqual(['checkout']);
    expect((await stack.admin.get('/api/admin/client-metrics/features/shipped/raw?hoursBack=0')).status).toBe(400);
  });

  it('answers project insights from the health report and the event stream', async () => {
    const { status, body } = await stack.admin.get('/api/admin/projects/alpha/insights');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      health: { rating: 50, activeCount: 3, potentiallyStaleCount: 1, staleCount: 1 },
      technicalDebt: { rating: 50 },
      featureTypeCounts: [
        { type: 'operational', count: 1 },
        { type: 'release', count: 3 },
      ],
      members: { currentMembers: 1, change: 1 },
      stats: { createdCurrentWindow: 6 },
    });
    expect(body.leadTime.features.map((feature: { name: string }) => feature.name)).toEqual(['shipped']);
    expect(body.leadTime.projectAverage).toBeLessThan(0.01);
    expect((await stack.admin.get('/api/admin/projects/nope/insights')).status).toBe(404);
  });

  it('answers the project status page', async () => {
    const { status, body } = await stack.admin.get('/api/admin/projects/alpha/status');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      resources: { members: 1, apiTokens: 1, segments: 0 },
      health: { current: 50 },
      technicalDebt: { current: 50 },
      staleFlags: { total: 1 },
      lifecycleSummary: {
        initial: { currentFlags: 3 },
        preLive: { currentFlags: 0, averageDays: null },
        live: { currentFlags: 1 },
        completed: { currentFlags: 0 },
        archived: { currentFlags: 1, last30Days: 1 },
      },
    });
    const today = new Date().toISOString().slice(0, 10);
    const days = body.activityCountByDate.map((entry: { date: string }) => entry.date);
    expect(days).toContain(today);
    expect(days).toContain(daysAgo(45).slice(0, 10));
    expect((await stack.admin.get('/api/admin/projects/nope/status')).status).toBe(404);
  });

  it('answers lead times, the applications of a project and flags SDKs know but the configuration does not', async () => {
    const dora = await stack.admin.get('/api/admin/projects/alpha/dora');
    expect(dora.body.features.map((feature: { name: string }) => feature.name)).toEqual(['shipped']);
    const applications = await stack.admin.get('/api/admin/projects/alpha/applications');
    expect(applications.body.total).toBe(2);
    expect(applications.body.applications.find((a: { name: string }) => a.name === 'checkout')).toEqual({
      name: 'checkout',
      environments: ['production'],
      instances: ['i-1'],
      sdks: [],
    });
    expect(
      (await stack.admin.get('/api/admin/projects/alpha/applications?query=yester')).body.applications.map(
        (a: { name: string }) => a.name,
      ),
    ).toEqual(['yesterday-app']);
    const unknown = await stack.admin.get('/api/admin/metrics/unknown-flags');
    expect(unknown.body.unknownFlags).toEqual([
      {
        name: 'unknown',
        lastSeenAt: expect.any(String),
        lastEventAt: null,
        reports: [{ appName: 'checkout', environments: [{ environment: 'production', seenAt: expect.any(String) }] }],
      },
    ]);
  });
});

describe('applications: instances, overview, descriptions', () => {
  it('records application-created once per new application', async () => {
    const events = await eventually(async () => {
      const found = (await stack.admin.post('/api/admin/events/search', { type: 'application-created' })).body.events;
      return found.length >= 2 && found;
    });
    expect(events.map((event: { data: { appName: string } }) => event.data.appName).sort()).toEqual([
      'checkout',
      'yesterday-app',
    ]);
    expect(events[0]).toMatchObject({ createdBy: 'unleash_system_user', createdByUserId: -1337 });
  });

  it('lists instances per environment and gives an overview', async () => {
    const instances = await stack.admin.get('/api/admin/metrics/instances/checkout/environment/production');
    expect(instances.body.instances).toEqual([{ instanceId: 'i-1', sdkVersion: null, lastSeen: expect.any(String) }]);
    const overview = await stack.admin.get('/api/admin/metrics/applications/checkout/overview');
    expect(overview.body).toEqual({
      projects: ['alpha'],
      featureCount: 3,
      environments: [
        {
          name: 'production',
          instanceCount: 1,
          sdks: [],
          frontendSdks: [],
          backendSdks: [],
          lastSeen: expect.any(String),
          issues: { missingFeatures: ['unknown'], outdatedSdks: [] },
        },
      ],
      issues: { missingStrategies: [] },
    });
    expect((await stack.admin.get('/api/admin/metrics/applications/nobody/overview')).status).toBe(404);
  });

  it('lets an admin describe and forget applications', async () => {
    expect(
      (
        await stack.admin.post('/api/admin/metrics/applications/checkout', {
          description: 'the shop checkout',
          color: 'green',
        })
      ).status,
    ).toBe(200);
    expect((await stack.admin.get('/api/admin/metrics/applications/checkout')).body).toMatchObject({
      appName: 'checkout',
      description: 'the shop checkout',
      color: 'green',
    });
    expect(
      (await stack.admin.post('/api/admin/metrics/applications/described-first', { url: 'https://example.com' }))
        .status,
    ).toBe(200);
    await eventually(
      async () =>
        (await stack.admin.post('/api/admin/events/search', { type: 'application-created', query: 'described-first' }))
          .body.events.length === 1,
    );
    expect((await stack.admin.delete('/api/admin/metrics/applications/described-first')).status).toBe(200);
    expect((await stack.admin.get('/api/admin/metrics/applications/described-first')).status).toBe(404);
    expect((await client.post('/api/admin/metrics/applications/checkout', { description: 'x' })).status).toBe(403);
    expect((await stack.admin.post('/api/admin/metrics/applications/checkout', { color: 7 })).status).toBe(400);
  });
});

describe('GET /api/admin/insights/lifecycle', () => {
  it('groups live flags by lifecycle stage and kind', async () => {
    const { status, body } = await stack.admin.get('/api/admin/insights/lifecycle');
    expect(status).toBe(200);
    const none = { flagsOlderThanWeek: 0, newFlagsThisWeek: 0 };
    expect(body.lifecycleTrends.develop).toMatchObject({
      totalFlags: 3,
      categories: {
        experimental: none,
        release: { flagsOlderThanWeek: 0, newFlagsThisWeek: 2 },
        permanent: { flagsOlderThanWeek: 0, newFlagsThisWeek: 1 },
      },
    });
    expect(body.lifecycleTrends.production).toMatchObject({
      totalFlags: 1,
      categories: { release: { newFlagsThisWeek: 1 } },
    });
    expect(body.lifecycleTrends.cleanup).toMatchObject({ totalFlags: 0, averageDays: 0 });
    expect(body.lifecycleTrends.develop.averageDays).toBeLessThan(0.1);
  });
});

describe('the consumers are idempotent', () => {
  it('adds a redelivered metrics message once', async () => {
    const message = MetricsMessage.parse({
      kind: 'client-metrics',
      receivedAt: '2024-03-05T10:20:00.000Z',
      environment: 'development',
      tokenName: 'test',
      body: {
        appName: 'replayed',
        bucket: {
          start: '2024-03-05T10:00:00.000Z',
          stop: '2024-03-05T10:01:00.000Z',
          toggles: { shipped: { yes: 2, no: 1 } },
        },
      },
    });
    const announce = applicationAnnouncer(createOutbox('insights'), stack.messaging);
    await recordMetrics(stack.db, message, 9_000_001, announce);
    await recordMetrics(stack.db, message, 9_000_001, announce);
    const { body } = await stack.admin.get('/api/admin/insights?from=2024-03-01&to=2024-03-10');
    expect(body.metricsSummaryTrends).toEqual([
      expect.objectContaining({ project: 'alpha', totalYes: 2, totalNo: 1, totalRequests: 3 }),
    ]);
  });

  it('counts an event published twice once', async () => {
    const event = {
      uuid: randomUUID(),
      type: 'feature-updated',
      project: 'solo',
      featureName: 'x',
      createdAt: daysAgo(50),
    };
    await publishEvent(event);
    await publishEvent(event);
    await publishEvent({ type: 'feature-updated', project: 'solo', createdAt: daysAgo(1) });
    const { sql } = await import('@bunting/platform');
    const counts = await eventually(async () => {
      const rows = await stack.db.any(sql.unsafe`select created_at from insights.events where project = 'solo'`);
      return rows.length >= 2 && rows.length;
    });
    expect(counts).toBe(2);
  });
});
