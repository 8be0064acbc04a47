import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '@bunting/testing';
import {
  eventually,
  httpClient,
  isolate,
  loginAs,
  startIngress,
  startServiceProcess,
  type Isolation,
  type ServiceProcess,
} from '@bunting/test-stack';
import { runFlagLifecycle } from './flag-lifecycle.ts';

/** The same story with admin-api, event-log and insights as separate processes behind a path-routing ingress. */
let isolation: Isolation;
let processes: ServiceProcess[] = [];
let ingress: Awaited<ReturnType<typeof startIngress>>;
const adminToken = '*:*.split-admin-token';

beforeAll(async () => {
  isolation = await isolate();
  // The installation's address, known to admin-api: its MCP server asks other services' routes through it.
  const ingressPort = await freePort();
  const env = { ...isolation.env, INIT_ADMIN_API_TOKENS: adminToken, BUNTING_URL: `http://127.0.0.1:${ingressPort}` };
  // admin-api first: it owns the credentials event-log asks about.
  processes.push(await startServiceProcess('admin-api', env));
  processes.push(await startServiceProcess('event-log', env));
  processes.push(await startServiceProcess('insights', env));
  ingress = await startIngress(
    [
      { prefix: '/api/admin/events', upstream: processes[1]!.url },
      { prefix: '/api/admin/search/events', upstream: processes[1]!.url },
      { prefix: '/api/admin/event-creators', upstream: processes[1]!.url },
      { prefix: '/api/admin/projects/shop/health-report', upstream: processes[2]!.url },
      { prefix: '/api/admin/instance-admin/statistics', upstream: processes[2]!.url },
      { prefix: '/api/admin/dashboard/executive', upstream: processes[2]!.url },
      { prefix: '/api/admin/impact-metrics', upstream: processes[2]!.url },
    ],
    processes[0]!.url,
    ingressPort,
  );
}, 60_000);

afterAll(async () => {
  await ingress?.close();
  for (const child of processes.reverse()) await child.stop();
  await isolation?.cleanup();
});

it('takes a flag through its whole life with admin-api and event-log in separate processes', async () => {
  await runFlagLifecycle(ingress.url, adminToken);
});

it('reports on it from the insights process, which asks admin-api over NATS and follows the event stream', async () => {
  const admin = httpClient(ingress.url, { authorization: adminToken });
  const report = await eventually(
    async () => {
      const { body } = await admin.get('/api/admin/projects/shop/health-report');
      return body.stats?.createdCurrentWindow >= 1 && body;
    },
    { timeoutMs: 15_000 },
  );
  expect(report).toMatchObject({ version: 1, name: 'Shop', health: expect.any(Number) });
  expect(report.stats.projectActivityCurrentWindow).toBeGreaterThan(3);
  const statistics = await admin.get('/api/admin/instance-admin/statistics');
  expect(statistics.status).toBe(200);
  expect(statistics.body).toMatchObject({ projects: 2, environments: 3, apiTokens: { admin: 1 } });
  const dashboard = await admin.get('/api/admin/dashboard/executive');
  expect(dashboard.status).toBe(200);
  expect(dashboard.body.flagTrends.at(-1).total).toBe(statistics.body.featureToggles);
  expect((await httpClient(ingress.url).get('/api/admin/dashboard/executive')).status).toBe(401);
});

it("serves the web console from the admin-api process, and the console's session reaches event-log behind the same address", async () => {
  const page = await fetch(`${ingress.url}/projects/shop/features/checkout`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(await page.text()).toContain('<div id="root">');

  const login = await fetch(`${ingress.url}/auth/simple/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ingress.url },
    body: JSON.stringify({ username: 'admin', password: 'unleash4all' }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const history = await fetch(`${ingress.url}/api/admin/search/events?project=IS:shop&limit=5`, {
    headers: { cookie },
  });
  expect(history.status).toBe(200);
  expect(((await history.json()) as { events: unknown[] }).events.length).toBeGreaterThan(0);
});

it("documents the whole running API at the ingress: admin-api serves the union of each service's own document", async () => {
  const own = async (url: string) =>
    Object.keys(((await (await fetch(`${url}/docs/openapi.json`)).json()) as { paths: Record<string, unknown> }).paths);
  const eventLogPaths = await own(processes[1]!.url);
  expect(eventLogPaths).toContain('/api/admin/events');
  expect(eventLogPaths).not.toContain('/api/admin/projects');
  const whole = await own(ingress.url);
  for (const path of [
    '/api/admin/projects',
    '/api/admin/events',
    '/api/admin/search/events',
    '/api/admin/projects/{projectId}/health-report',
  ])
    expect(whole).toContain(path);
  // frontend-api and signals are not running here, so nothing of theirs is described.
  expect(whole).not.toContain('/api/frontend');
  expect(whole).not.toContain('/api/signal-endpoint/{endpointName}');
});

it("answers an MCP agent from admin-api, which asks event-log's and insights' routes through the installation's address", async () => {
  const person = await loginAs(ingress.url, 'admin', 'unleash4all');
  const pat = (
    await person.post('/api/admin/user/tokens', {
      description: 'split agent',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    })
  ).body.secret as string;
  const client = new Client({ name: 'split-agent', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${ingress.url}/api/admin/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${pat}` } },
    }),
  );
  const history = await client.readResource({ uri: 'bunting://flags/new-cart/history' });
  expect(
    JSON.parse((history.contents[0] as { text: string }).text).map((event: { type: string }) => event.type),
  ).toContain('feature-created');
  const metrics = (await client.callTool({ name: 'read_impact_metric', arguments: {} })) as CallToolResult;
  expect(metrics.isError).toBeFalsy();
  expect(Array.isArray((metrics.structuredContent as { metrics: unknown[] }).metrics)).toBe(true);
  await client.close();
});
