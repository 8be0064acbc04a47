import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { eventually, loginAs, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

/**
 * The MCP server, driven by the official SDK's client: remote (Streamable HTTP at /api/admin/mcp) with personal access
 * tokens, and the local package over stdio. Each tool's effect is checked through the HTTP API and the event log,
 * which names the MCP client; a viewer changes nothing; a change-request environment yields a draft; bad input is
 * refused with a clear message and changes nothing.
 */
let stack: TestStack;
let editorPat: string;
let viewerPat: string;
let reviewer: HttpClient;
const project = '/api/admin/projects/default';
const flags = `${project}/features`;
const stdioMain = fileURLToPath(new URL('../../../libs/mcp/src/stdio-main.ts', import.meta.url));

async function patOf(username: string, rootRole: string): Promise<string> {
  expect(
    (await stack.admin.post('/api/admin/user-admin', { username, password: 'a-long-password', rootRole })).status,
  ).toBe(201);
  const person = await loginAs(stack.url, username, 'a-long-password');
  const created = await person.post('/api/admin/user/tokens', {
    description: 'agent',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  expect(created.status).toBe(201);
  return created.body.secret as string;
}

async function remote(token: string, name = 'e2e-agent'): Promise<Client> {
  const client = new Client({ name, version: '1.2.3' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.url}/api/admin/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  // Listing the tools first makes the client check every answer against the tool's output schema.
  await client.listTools();
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const answer = await call(client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.content)}`);
  return answer.structuredContent as Record<string, any>;
}
const errorText = (answer: CallToolResult) =>
  (answer.content as { type: string; text: string }[]).map((part) => part.text).join('\n');

type Logged = {
  type: string;
  featureName: string | null;
  createdBy: string;
  createdVia?: string;
  environment: string | null;
};
const eventsOf = async (flag: string) =>
  (await stack.admin.get(`/api/admin/search/events?feature=IS:${flag}&limit=100`)).body.events as Logged[];

beforeAll(async () => {
  stack = await startTestStack();
  editorPat = await patOf('agent-owner', 'Editor');
  viewerPat = await patOf('agent-viewer', 'Viewer');
  await stack.admin.post('/api/admin/user-admin', {
    username: 'agent-reviewer',
    password: 'a-long-password',
    rootRole: 'Editor',
  });
  reviewer = await loginAs(stack.url, 'agent-reviewer', 'a-long-password');
  expect(
    (
      await stack.admin.put(`${project}/environments/production/change-requests/config`, {
        changeRequestsEnabled: true,
        requiredApprovals: 1,
      })
    ).status,
  ).toBeLessThan(300);
  expect((await stack.admin.post('/api/admin/projects', { id: 'elsewhere', name: 'Elsewhere' })).status).toBeLessThan(
    300,
  );
});

afterAll(async () => {
  await stack?.dispose();
});

describe('the remote MCP server', () => {
  it('lists its tools, each described, with read-only ones marked, and its prompts and resource templates', async () => {
    const client = await remote(editorPat);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'list_projects',
        'list_flags',
        'get_flag_state',
        'create_flag',
        'toggle_flag_environment',
        'set_flag_rollout',
        'remove_flag_strategy',
        'archive_flag',
        'evaluate_flags',
        'list_release_templates',
        'apply_release_template',
        'get_release_plans',
        'start_milestone',
        'set_release_safeguard',
        'resume_release_plan',
        'read_impact_metric',
        'list_change_requests',
        'submit_change_request',
        'approve_change_request',
        'apply_change_request',
        'mark_flag_done',
        'cleanup_flag',
        'list_unused_flags',
        'detect_flag',
        'evaluate_change',
        'wrap_change',
      ]),
    );
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
    }
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name);
    expect(readOnly).toEqual(
      expect.arrayContaining(['list_flags', 'get_flag_state', 'evaluate_flags', 'cleanup_flag']),
    );
    expect(readOnly).not.toContain('create_flag');
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining(['roll_out_change', 'clean_up_flag']),
    );
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toContain(
      'bunting://flags/{flag}/history',
    );
    await client.close();
  });

  it("creates, rolls out, evaluates and trims a flag as the token's user, each change in the event log naming the MCP client", async () => {
    const client = await remote(editorPat, 'claude-code');
    expect((await ok(client, 'list_projects')).projects.map((entry: { id: string }) => entry.id)).toContain('default');
    const created = await ok(client, 'create_flag', {
      project: 'default',
      name: 'mcp-checkout',
      description: 'Guards the new checkout',
    });
    expect(created).toMatchObject({ name: 'mcp-checkout', project: 'default', type: 'release' });
    expect((await stack.admin.get(`${flags}/mcp-checkout`)).body.description).toBe('Guards the new checkout');

    const rollout = await ok(client, 'set_flag_rollout', {
      project: 'default',
      flag: 'mcp-checkout',
      environment: 'development',
      percentage: 100,
      stickiness: 'userId',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] }],
      variants: [{ name: 'blue' }, { name: 'green' }],
    });
    expect(rollout.outcome).toBe('changed');
    expect(
      (
        await ok(client, 'toggle_flag_environment', {
          project: 'default',
          flag: 'mcp-checkout',
          environment: 'development',
          enabled: true,
        })
      ).outcome,
    ).toBe('changed');

    const state = await ok(client, 'get_flag_state', { project: 'default', flag: 'mcp-checkout' });
    const development = state.environments.find((environment: { name: string }) => environment.name === 'development');
    expect(development.enabled).toBe(true);
    expect(development.strategies).toHaveLength(1);
    expect(development.strategies[0].parameters).toMatchObject({
      rollout: '100',
      stickiness: 'userId',
      groupId: 'mcp-checkout',
    });
    expect(development.strategies[0].variants.map((variant: { weight: number }) => variant.weight)).toEqual([500, 500]);
    const viaApi = (await stack.admin.get(`${flags}/mcp-checkout`)).body.environments.find(
      (environment: { name: string }) => environment.name === 'development',
    );
    expect(viaApi.enabled).toBe(true);
    expect(viaApi.strategies[0].constraints[0]).toMatchObject({
      contextName: 'userId',
      operator: 'IN',
      values: ['alice', 'bob'],
    });

    const evaluated = await ok(client, 'evaluate_flags', {
      environment: 'development',
      context: { userId: 'alice' },
      project: 'default',
      flag: 'mcp-checkout',
    });
    expect(evaluated.flags[0]).toMatchObject({ name: 'mcp-checkout', enabled: true });
    expect(['blue', 'green']).toContain(evaluated.flags[0].variant);
    expect(evaluated.flags[0].why).toMatch(/matched/);
    const outside = await ok(client, 'evaluate_flags', {
      environment: 'development',
      context: { userId: 'mallory' },
      project: 'default',
      flag: 'mcp-checkout',
    });
    expect(outside.flags[0].enabled).toBe(false);
    expect(outside.flags[0].why).toMatch(/constraint userId IN failed/);

    const listed = await ok(client, 'list_flags', { project: 'default', query: 'mcp-check' });
    expect(listed.flags).toEqual([
      expect.objectContaining({
        name: 'mcp-checkout',
        stale: false,
        potentiallyStale: false,
        enabledIn: ['development'],
      }),
    ]);
    expect((await ok(client, 'detect_flag', { words: ['checkout', 'nothing-like-it'] })).candidates[0]).toMatchObject({
      name: 'mcp-checkout',
      matches: 1,
    });

    // With the strategy's id, the rollout updates that strategy instead of adding one.
    expect(
      (
        await ok(client, 'set_flag_rollout', {
          project: 'default',
          flag: 'mcp-checkout',
          environment: 'development',
          percentage: 40,
          strategyId: development.strategies[0].id,
        })
      ).outcome,
    ).toBe('changed');
    const updated = (await stack.admin.get(`${flags}/mcp-checkout`)).body.environments.find(
      (environment: { name: string }) => environment.name === 'development',
    ).strategies;
    expect(updated).toHaveLength(1);
    expect(updated[0].parameters.rollout).toBe('40');
    expect(
      (
        await ok(client, 'remove_flag_strategy', {
          project: 'default',
          flag: 'mcp-checkout',
          environment: 'development',
          strategyId: development.strategies[0].id,
        })
      ).outcome,
    ).toBe('changed');
    expect(
      (await stack.admin.get(`${flags}/mcp-checkout`)).body.environments.find(
        (environment: { name: string }) => environment.name === 'development',
      ).strategies,
    ).toEqual([]);

    await eventually(async () => {
      const events = await eventsOf('mcp-checkout');
      // Removing the last strategy of an enabled environment turns it off, as in Unleash.
      expect(events.map((event) => event.type).sort()).toEqual([
        'feature-created',
        'feature-environment-disabled',
        'feature-environment-enabled',
        'feature-strategy-add',
        'feature-strategy-remove',
        'feature-strategy-update',
      ]);
      for (const event of events)
        expect(event).toMatchObject({ createdBy: 'agent-owner', createdVia: 'MCP: claude-code 1.2.3' });
      return true;
    });
    // Changes made through the API directly name no MCP client.
    expect(
      (await stack.admin.post('/api/admin/features/mcp-checkout/tags', { type: 'simple', value: 'direct' })).status,
    ).toBe(201);
    await eventually(async () => {
      const tagged = (await eventsOf('mcp-checkout')).find((event) => event.type === 'feature-tagged');
      expect(tagged).toBeDefined();
      expect(tagged!.createdVia).toBeUndefined();
      return true;
    });
    const history = await client.readResource({ uri: 'bunting://flags/mcp-checkout/history' });
    expect(JSON.parse((history.contents[0] as { text: string }).text).map((event: Logged) => event.type)).toContain(
      'feature-created',
    );
    await client.close();
  });

  it('puts a change for a change-request environment in a draft, which is submitted, approved by another and applied', async () => {
    const client = await remote(editorPat);
    await ok(client, 'create_flag', { project: 'default', name: 'mcp-gated' });
    const proposed = await ok(client, 'toggle_flag_environment', {
      project: 'default',
      flag: 'mcp-gated',
      environment: 'production',
      enabled: true,
    });
    expect(proposed).toMatchObject({
      outcome: 'proposed',
      changeRequest: { state: 'Draft', environment: 'production' },
    });
    const id = proposed.changeRequest.id as number;
    const production = async () =>
      (await stack.admin.get(`${flags}/mcp-gated`)).body.environments.find(
        (environment: { name: string }) => environment.name === 'production',
      ).enabled;
    expect(await production()).toBe(false);
    const rollout = await ok(client, 'set_flag_rollout', {
      project: 'default',
      flag: 'mcp-gated',
      environment: 'production',
      percentage: 10,
    });
    expect(rollout.changeRequest.id).toBe(id);

    const mine = await ok(client, 'list_change_requests', { which: 'mine', project: 'default' });
    expect(mine.changeRequests).toEqual([
      expect.objectContaining({
        id,
        state: 'Draft',
        changes: expect.arrayContaining([
          expect.objectContaining({ flag: 'mcp-gated', action: 'updateEnabled' }),
          expect.objectContaining({ action: 'addStrategy' }),
        ]),
      }),
    ]);
    expect((await ok(client, 'submit_change_request', { project: 'default', id })).state).toBe('In review');
    const own = await call(client, 'approve_change_request', { project: 'default', id });
    expect(own.isError).toBe(true);
    expect(errorText(own)).toMatch(/refused \(403\)/);
    expect(await production()).toBe(false);

    const reviewerPat = (
      await reviewer.post('/api/admin/user/tokens', {
        description: 'agent',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      })
    ).body.secret as string;
    const reviewing = await remote(reviewerPat, 'cursor');
    expect(
      (await ok(reviewing, 'list_change_requests', { which: 'to-review' })).changeRequests.map(
        (entry: { id: number }) => entry.id,
      ),
    ).toContain(id);
    expect((await ok(reviewing, 'approve_change_request', { project: 'default', id })).state).toBe('Approved');
    expect((await ok(client, 'apply_change_request', { project: 'default', id })).state).toBe('Applied');
    expect(await production()).toBe(true);
    await reviewing.close();
    await client.close();
  });

  it('runs release plans: a template applied, a milestone started, a safeguard set; and reads impact metrics', async () => {
    const template = await stack.admin.post('/api/admin/release-plan-templates', {
      name: 'MCP gradual',
      description: 'Two steps',
      milestones: [
        {
          name: 'Ten per cent',
          strategies: [
            { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default' }, constraints: [] },
          ],
        },
        {
          name: 'Everyone',
          strategies: [
            { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default' }, constraints: [] },
          ],
        },
      ],
    });
    expect(template.status).toBe(200);
    const client = await remote(editorPat);
    await ok(client, 'create_flag', { project: 'default', name: 'mcp-release' });
    expect(
      (await ok(client, 'list_release_templates')).templates.map((entry: { name: string }) => entry.name),
    ).toContain('MCP gradual');
    expect(
      (
        await ok(client, 'apply_release_template', {
          project: 'default',
          flag: 'mcp-release',
          environment: 'development',
          templateId: template.body.id,
        })
      ).outcome,
    ).toBe('changed');
    const [plan] = (
      await ok(client, 'get_release_plans', { project: 'default', flag: 'mcp-release', environment: 'development' })
    ).plans;
    expect(plan.milestones).toHaveLength(2);
    expect(
      (
        await ok(client, 'start_milestone', {
          project: 'default',
          flag: 'mcp-release',
          environment: 'development',
          planId: plan.id,
          milestoneId: plan.milestones[1].id,
        })
      ).outcome,
    ).toBe('changed');
    const safeguard = {
      impactMetric: { metricName: 'checkout_errors', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
      triggerCondition: { operator: '>', threshold: 5 },
    };
    expect(
      (
        await ok(client, 'set_release_safeguard', {
          project: 'default',
          flag: 'mcp-release',
          environment: 'development',
          planId: plan.id,
          safeguard,
        })
      ).outcome,
    ).toBe('changed');
    const viaApi = (await stack.admin.get(`${flags}/mcp-release/environments/development/release-plans`)).body[0];
    expect(viaApi.activeMilestoneId).toBe(plan.milestones[1].id);
    expect(viaApi.safeguards[0].triggerCondition).toEqual({ operator: '>', threshold: 5 });
    // Resuming a plan no safeguard paused changes nothing, and says it went through.
    expect(
      (
        await ok(client, 'resume_release_plan', {
          project: 'default',
          flag: 'mcp-release',
          environment: 'development',
          planId: plan.id,
        })
      ).outcome,
    ).toBe('changed');
    expect(
      (
        await stack.admin.post('/api/admin/impact-metrics/register', {
          name: 'checkout_errors',
          type: 'counter',
          help: 'Failed checkouts',
        })
      ).status,
    ).toBeLessThan(300);
    // Stored as Unleash names them: unleash_<type>_<name>.
    const metrics = (await ok(client, 'read_impact_metric')).metrics as { name: string }[];
    expect(metrics.map((metric) => metric.name)).toContain('unleash_counter_checkout_errors');
    const series = await ok(client, 'read_impact_metric', {
      metricName: 'unleash_counter_checkout_errors',
      range: 'hour',
      aggregationMode: 'count',
    });
    expect(series).toMatchObject({ step: expect.any(String), series: expect.any(Array) });
    await client.close();
  });

  it('says what to remove for a finished flag, then archives it; lists flags no SDK evaluates', async () => {
    const client = await remote(editorPat);
    // In project "elsewhere", no environment takes changes through change requests.
    const elsewhere = '/api/admin/projects/elsewhere/features';
    await ok(client, 'create_flag', { project: 'elsewhere', name: 'mcp-old-banner', type: 'experiment' });
    expect((await ok(client, 'cleanup_flag', { project: 'elsewhere', flag: 'mcp-old-banner' })).keep).toBe('undecided');
    await ok(client, 'mark_flag_done', { project: 'elsewhere', flag: 'mcp-old-banner', outcome: 'kept' });
    // A CI job's scan (bunting code-refs) found where code uses it: the tool names those files and lines.
    await stack.admin.post('/api/admin/code-references', {
      repository: 'github.com/acme/web',
      branch: 'main',
      commit: 'c0ffee',
      references: [{ flag: 'mcp-old-banner', path: 'src/banner.tsx', line: 7, context: [] }],
    });
    const cleanup = await ok(client, 'cleanup_flag', { project: 'elsewhere', flag: 'mcp-old-banner' });
    expect(cleanup).toMatchObject({
      markedDone: true,
      keep: 'on',
      searchFor: ['mcp-old-banner', 'MCP_OLD_BANNER', 'mcpOldBanner'],
      references: [
        {
          repository: 'github.com/acme/web',
          branch: 'main',
          path: 'src/banner.tsx',
          line: 7,
          url: 'https://github.com/acme/web/blob/main/src/banner.tsx#L7',
        },
      ],
    });
    expect(cleanup.steps).toContainEqual(expect.stringContaining('src/banner.tsx:7 (github.com/acme/web, main)'));
    // Kept with one of its variants: that variant's branch stays.
    await ok(client, 'create_flag', { project: 'elsewhere', name: 'mcp-kept-variant', type: 'experiment' });
    await ok(client, 'set_flag_rollout', {
      project: 'elsewhere',
      flag: 'mcp-kept-variant',
      environment: 'development',
      percentage: 100,
      variants: [{ name: 'blue' }, { name: 'green' }],
    });
    await ok(client, 'mark_flag_done', {
      project: 'elsewhere',
      flag: 'mcp-kept-variant',
      outcome: 'kept',
      variant: 'green',
    });
    const keptVariant = await ok(client, 'cleanup_flag', { project: 'elsewhere', flag: 'mcp-kept-variant' });
    expect(keptVariant).toMatchObject({ keep: 'on', keptVariant: 'green', variants: ['blue', 'green'] });
    expect(keptVariant.steps).toContain(`Keep variant "green"'s branch; delete the other variants' branches.`);
    expect(
      (await ok(client, 'list_unused_flags', { days: 1, project: 'elsewhere' })).flags.map(
        (flag: { name: string }) => flag.name,
      ),
    ).not.toContain('mcp-old-banner');
    expect((await ok(client, 'archive_flag', { project: 'elsewhere', flag: 'mcp-old-banner' })).outcome).toBe(
      'changed',
    );
    expect((await stack.admin.get(`${elsewhere}/mcp-old-banner`)).status).toBe(404);
    expect((await stack.admin.get(`${elsewhere}/mcp-old-banner?archived=true`)).body.archived).toBe(true);
    // In "default", production takes changes through change requests: archiving there is proposed.
    await ok(client, 'create_flag', { project: 'default', name: 'mcp-gated-archive' });
    expect((await ok(client, 'archive_flag', { project: 'default', flag: 'mcp-gated-archive' })).outcome).toBe(
      'proposed',
    );
    expect((await stack.admin.get(`${flags}/mcp-gated-archive`)).status).toBe(200);
    const wrapped = await ok(client, 'wrap_change', { flag: 'mcp-old-banner', sdk: 'react' });
    expect(wrapped.snippet).toContain('useFlag("mcp-old-banner")');
    expect(
      (await ok(client, 'evaluate_change', { description: 'Migrate checkout payments to the new billing API' })).risk,
    ).toBe('high');
    await client.close();
  });

  it("acts as a service account with the service account's token, named in the event log", async () => {
    const account = await stack.admin.post('/api/admin/service-account', {
      username: 'release-bot',
      name: 'Release bot',
      rootRole: 2,
    });
    expect(account.status).toBe(201);
    const token = await stack.admin.post(`/api/admin/service-account/${account.body.id}/token`, {
      description: 'agent',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const client = await remote(token.body.secret as string, 'ci-agent');
    await ok(client, 'create_flag', { project: 'elsewhere', name: 'mcp-bot-made' });
    await eventually(async () => {
      expect(await eventsOf('mcp-bot-made')).toEqual([
        expect.objectContaining({
          type: 'feature-created',
          createdBy: 'release-bot',
          createdVia: 'MCP: ci-agent 1.2.3',
        }),
      ]);
      return true;
    });
    await client.close();
  });

  it('lets a viewer read but change nothing', async () => {
    const client = await remote(viewerPat);
    expect((await ok(client, 'list_flags', { project: 'default' })).flags.length).toBeGreaterThan(0);
    const refused = await call(client, 'create_flag', { project: 'default', name: 'mcp-viewer-made' });
    expect(refused.isError).toBe(true);
    expect(errorText(refused)).toMatch(/refused \(403\)/);
    const toggled = await call(client, 'toggle_flag_environment', {
      project: 'default',
      flag: 'mcp-checkout',
      environment: 'development',
      enabled: true,
    });
    expect(toggled.isError).toBe(true);
    expect((await stack.admin.get(`${flags}/mcp-viewer-made`)).status).toBe(404);
    await client.close();
  });

  it('refuses bad input with a clear message, changing nothing and never answering 5xx', async () => {
    const client = await remote(editorPat);
    const before = (await stack.admin.get('/api/admin/search/features?limit=1000')).body.total as number;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['no_such_tool', {}, /Tool no_such_tool not found/],
      ['create_flag', { project: 'default' }, /Input validation error[\s\S]*name/],
      ['create_flag', { project: 'default', name: 42 }, /Input validation error[\s\S]*expected string/],
      [
        'set_flag_rollout',
        { project: 'default', flag: 'mcp-checkout', environment: 'development', percentage: 'half' },
        /Input validation error/,
      ],
      [
        'create_flag',
        { project: 'default', name: 'mcp-huge', description: 'x'.repeat(1024 * 1024) },
        /Input validation error[\s\S]*(too big|at most|<=)/i,
      ],
      ['get_flag_state', { project: 'elsewhere', flag: 'mcp-checkout' }, /refused \(404\)/],
      ['create_flag', { project: 'default', name: 'not url friendly!' }, /refused \(400\)[\s\S]*URL friendly/],
    ];
    for (const [name, args, message] of cases) {
      const answer = await call(client, name, args);
      expect(answer.isError, name).toBe(true);
      expect(errorText(answer), name).toMatch(message);
    }
    expect((await stack.admin.get('/api/admin/search/features?limit=1000')).body.total).toBe(before);
    await client.close();
  });

  it('refuses callers without a user token, GET and DELETE, and answers 404 while turned off', async () => {
    const anonymous = await fetch(`${stack.url}/api/admin/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    const adminToken = await fetch(`${stack.url}/api/admin/mcp`, {
      method: 'POST',
      headers: {
        authorization: stack.adminToken,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(adminToken.status).toBe(403);
    expect((await fetch(`${stack.url}/api/admin/mcp`, { headers: { authorization: editorPat } })).status).toBe(405);
    expect(
      (await fetch(`${stack.url}/api/admin/mcp`, { method: 'DELETE', headers: { authorization: editorPat } })).status,
    ).toBe(405);

    expect((await stack.admin.put('/api/admin/remote-mcp/settings', { enabled: false })).status).toBe(204);
    expect((await stack.admin.get('/api/admin/remote-mcp/settings')).body).toEqual({ enabled: false });
    await expect(remote(editorPat)).rejects.toThrow(/NotFoundError.*turned off/);
    expect((await stack.admin.put('/api/admin/remote-mcp/settings', { enabled: true })).status).toBe(204);
    const client = await remote(editorPat);
    expect((await ok(client, 'list_projects')).projects.length).toBeGreaterThan(0);
    await client.close();
    await eventually(async () => {
      const events = (await stack.admin.get('/api/admin/search/events?type=IS:setting-updated&limit=10')).body
        .events as { data: { id: string } }[];
      expect(events.some((event) => event.data.id === 'mcp.remote')).toBe(true);
      return true;
    });
  });
});

describe('the local package over stdio', () => {
  it('forwards each tool call to Bunting with the token, the event log naming the client', async () => {
    const client = new Client({ name: 'zed', version: '0.9' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [stdioMain],
        env: { PATH: process.env.PATH ?? '', BUNTING_URL: stack.url, BUNTING_TOKEN: editorPat },
        stderr: 'pipe',
      }),
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('set_flag_rollout');
    await ok(client, 'create_flag', { project: 'default', name: 'mcp-local', description: 'made over stdio' });
    expect(
      (
        await ok(client, 'toggle_flag_environment', {
          project: 'default',
          flag: 'mcp-local',
          environment: 'development',
          enabled: true,
        })
      ).outcome,
    ).toBe('changed');
    expect(
      (await ok(client, 'get_flag_state', { project: 'default', flag: 'mcp-local' })).environments.find(
        (environment: { name: string }) => environment.name === 'development',
      ).enabled,
    ).toBe(true);
    const refused = await call(client, 'get_flag_state', { project: 'default', flag: 'no-such-flag' });
    expect(refused.isError).toBe(true);
    await eventually(async () => {
      const events = await eventsOf('mcp-local');
      // Turning on an environment without strategies gives it the default one, as in Unleash.
      expect(events.map((event) => event.type).sort()).toEqual([
        'feature-created',
        'feature-environment-enabled',
        'feature-strategy-add',
      ]);
      for (const event of events) expect(event).toMatchObject({ createdBy: 'agent-owner', createdVia: 'MCP: zed 0.9' });
      return true;
    });
    await client.close();
  });
});
