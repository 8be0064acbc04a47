import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature } from '@openfeature/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { eventLogTotalAfterMarker, startTestStack, type TestStack } from '@bunting/test-stack';
import { bunting, projectDir, SHOP } from './flags-as-code.ts';

/**
 * `bunting` plan and apply against the real stack, run as a CI job runs them: the files are the truth, apply is
 * idempotent, a gated environment gets a change request and never a direct change, and a bad file stops before
 * anything is sent, pointing at its line.
 */
let stack: TestStack;
let env: { url: string; token: string };
const flag = (name: string) => stack.admin.get(`/api/admin/projects/default/features/${name}`);
const environment = (body: { environments: { name: string }[] }, name: string) =>
  body.environments.find((item) => item.name === name) as unknown as {
    enabled: boolean;
    strategies: {
      name: string;
      parameters: Record<string, string>;
      constraints: unknown[];
      segments: number[];
      variants: { name: string }[];
    }[];
    variants: { name: string; payload?: { value: string } }[];
  };

beforeAll(async () => {
  stack = await startTestStack();
  env = { url: stack.url, token: stack.adminToken };
}, 120_000);
afterAll(() => stack?.dispose());

describe('bunting plan and apply', () => {
  it('plans the project, applies it in dependency order, and a second apply changes nothing', async () => {
    const dir = await projectDir(SHOP);
    const plan = await bunting(['plan', '--dir', dir], env);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('+ segment beta-users');
    expect(plan.stdout).toContain('+ flag checkout-v2: release: The new checkout');
    expect(plan.stdout).toContain('+ checkout-v2 in development: strategy flexibleRollout "Half of beta users", 50%');
    expect(plan.stdout).toContain('+ flag checkout-banner: depends on checkout-v2');
    expect(plan.stdout.indexOf('+ flag checkout-v2')).toBeLessThan(plan.stdout.indexOf('+ flag checkout-banner'));
    const json = await bunting(['plan', '--dir', dir, '--json'], env);
    expect(JSON.parse(json.stdout).changes.length).toBeGreaterThan(5);

    const applied = await bunting(['apply', '--dir', dir, '--commit', 'a1b2c3d'], env);
    expect(applied.code, applied.stderr).toBe(0);
    const checkout = (await flag('checkout-v2')).body;
    expect(checkout.description).toBe('The new checkout');
    const development = environment(checkout, 'development');
    expect(development.enabled).toBe(true);
    expect(development.strategies[0]).toMatchObject({
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'checkout-v2' },
      constraints: [expect.objectContaining({ contextName: 'appVersion', operator: 'SEMVER_GTE', value: '2.1.0' })],
    });
    expect(development.strategies[0]!.segments).toHaveLength(1);
    expect(environment(checkout, 'production').enabled).toBe(false);
    const banner = (await flag('checkout-banner')).body;
    expect(banner.type).toBe('experiment');
    expect(banner.dependencies).toEqual([expect.objectContaining({ feature: 'checkout-v2', enabled: true })]);
    expect(environment(banner, 'development').strategies[0]!.variants.map((variant) => variant.name)).toEqual([
      'blue',
      'green',
    ]);
    expect((await stack.admin.get('/api/admin/features/checkout-v2/tags')).body.tags).toEqual([
      expect.objectContaining({ type: 'simple', value: 'web' }),
    ]);
    // Events name the tool and the commit.
    const events = (await stack.admin.get('/api/admin/search/events?feature=IS:checkout-v2&limit=50')).body.events;
    expect(events.find((event: { type: string }) => event.type === 'feature-created')).toMatchObject({
      createdVia: 'bunting-cli/0.1.0 (commit a1b2c3d)',
    });

    const before = await eventLogTotalAfterMarker(stack.admin);
    const again = await bunting(['apply', '--dir', dir], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes');
    expect((await bunting(['plan', '--dir', dir], env)).code).toBe(0);
    expect(await eventLogTotalAfterMarker(stack.admin)).toBe(before + 1);
  });

  it('exports what it applied, so export then plan is no change', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bunting-export-'));
    const exported = await bunting(['export', '--project', 'default', '--out', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const text = await readFile(join(out, 'default.yaml'), 'utf8');
    expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=/);
    const file = parse(text);
    expect(file.segments['beta-users'].constraints).toEqual([
      { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] },
    ]);
    expect(file.flags['checkout-banner'].dependencies).toEqual([{ feature: 'checkout-v2' }]);
    expect(file.flags['checkout-v2'].environments.development.strategies[0].segments).toEqual(['beta-users']);
    expect((await bunting(['plan', '--dir', out], env)).code).toBe(0);
  });

  it('puts changes to an environment that requires change requests into one change request, never directly', async () => {
    expect(
      (
        await stack.admin.put('/api/admin/projects/default/environments/production/change-requests/config', {
          changeRequestsEnabled: true,
          requiredApprovals: 1,
        })
      ).status,
    ).toBeLessThan(300);
    const rollout = SHOP.replace(
      `      production:
        enabled: false
        strategies:
          - name: default`,
      `      production:
        enabled: true
        strategies:
          - name: flexibleRollout
            parameters: { rollout: 10 }`,
    );
    const dir = await projectDir(rollout);
    const plan = await bunting(['plan', '--dir', dir], env);
    expect(plan.stdout).toContain('~ checkout-v2 in production: turn on [change request]');
    expect(plan.stdout).toContain('go into change requests for review');
    const applied = await bunting(['apply', '--dir', dir], env);
    expect(applied.code, applied.stderr).toBe(0);
    const opened = /Opened change request (\d+) for default\/production \(2 change\(s\)\): (\S+)/.exec(applied.stdout);
    expect(opened, applied.stdout).not.toBeNull();
    expect(opened![2]).toBe(`${stack.url}/projects/default/change-requests/${opened![1]}`);
    const production = environment((await flag('checkout-v2')).body, 'production');
    expect(production.enabled).toBe(false);
    expect(production.strategies.map((strategy) => strategy.name)).toEqual(['default']);
    const request = (await stack.admin.get(`/api/admin/projects/default/change-requests/${opened![1]}`)).body;
    expect(request.state).toBe('In review');
    expect(request.features[0].changes.map((change: { action: string }) => change.action).sort()).toEqual([
      'updateEnabled',
      'updateStrategy',
    ]);
  });

  it('stops on a bad file before sending anything, naming the file and line', async () => {
    const before = await eventLogTotalAfterMarker(stack.admin);
    const cases: [string, string, RegExp][] = [
      [
        SHOP.replace('    description: The new checkout', '    descripton: The new checkout'),
        'unknown key',
        /project\.yaml:11: flags\.checkout-v2: Unrecognized key: "descripton"/,
      ],
      [
        SHOP.replace('value: 2.1.0', 'value: two'),
        'bad constraint',
        /project\.yaml:23: .*two is not a semantic version/,
      ],
      [
        SHOP.replace('segments: [beta-users]', 'segments: [beta-testers]'),
        'missing segment',
        /project\.yaml:24: segment beta-testers is neither in the files nor on the server/,
      ],
      [
        SHOP.replace('      production:\n        enabled: false', '      staging:\n        enabled: false'),
        'missing environment',
        /project\.yaml:25: project default has no environment staging/,
      ],
      [`${SHOP}  checkout-v2:\n    type: release\n`, 'duplicate flag', /project\.yaml:\d+: Map keys must be unique/],
    ];
    for (const [text, label, message] of cases) {
      const dir = await projectDir(text);
      const applied = await bunting(['apply', '--dir', dir, '--prune'], env);
      expect(applied.code, label).toBe(1);
      expect(applied.stderr, label).toMatch(message);
    }
    expect(await eventLogTotalAfterMarker(stack.admin)).toBe(before + 1);
  });

  it('archives what the files no longer hold only with --prune, through a change request where one is required', async () => {
    await stack.admin.post('/api/admin/projects/default/features', { name: 'made-by-hand' });
    const dir = await projectDir(SHOP);
    expect((await bunting(['plan', '--dir', dir], env)).stdout).not.toContain('made-by-hand');
    const plan = await bunting(['plan', '--dir', dir, '--prune'], env);
    expect(plan.stdout).toContain(
      '- flag made-by-hand: archive made-by-hand (no longer in the files) [change request]',
    );
    const proposed = await bunting(['apply', '--dir', dir, '--prune'], env);
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(proposed.stdout).toMatch(/Opened change request \d+ for default\/production \(1 change\(s\)\)/);
    expect((await flag('made-by-hand')).status).toBe(200);

    await stack.admin.put('/api/admin/projects/default/environments/production/change-requests/config', {
      changeRequestsEnabled: false,
    });
    const pruned = await bunting(['apply', '--dir', dir, '--prune'], env);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect((await flag('made-by-hand')).status).toBe(404);
  });

  it('refuses a token that may not write, and changes nothing', async () => {
    const sdk = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'cli-sdk',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    const dir = await projectDir(SHOP.replace('The new checkout', 'Changed by an SDK token'));
    const refused = await bunting(['apply', '--dir', dir], { url: stack.url, token: sdk.body.secret });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/answered 403/);
    expect((await flag('checkout-v2')).body.description).toBe('The new checkout');
  });
});

describe('bunting: what besides flags the files hold', () => {
  it("applies the instance's context fields and release templates, a project's environments and change requests", async () => {
    expect((await stack.admin.post('/api/admin/environments', { name: 'staging', type: 'test' })).status).toBeLessThan(
      300,
    );
    expect((await stack.admin.post('/api/admin/projects', { id: 'ops', name: 'Ops' })).status).toBeLessThan(300);
    // A new project gets every environment; this one is to use staging only once the files say so.
    expect((await stack.admin.delete('/api/admin/projects/ops/environments/staging')).status).toBeLessThan(300);
    const dir = await projectDir(
      [
        'contextFields:',
        '  region:',
        '    description: Where the user is',
        '    legalValues:',
        '      - { value: eu }',
        '      - { value: us, description: The Americas }',
        'releaseTemplates:',
        '  gradual:',
        '    description: Ten per cent, then everyone',
        '    milestones:',
        '      - name: Ten per cent',
        '        intervalMinutes: 60',
        '        strategies:',
        '          - name: flexibleRollout',
        '            parameters: { rollout: 10, stickiness: default, groupId: gradual }',
        '            constraints: [{ contextName: region, operator: IN, values: [eu] }]',
        '      - name: Everyone',
        '        strategies:',
        '          - name: flexibleRollout',
        '            parameters: { rollout: 100, stickiness: default, groupId: gradual }',
        '',
      ].join('\n'),
      'instance.yaml',
    );
    await writeFile(
      join(dir, 'ops.yaml'),
      [
        'project: ops',
        'environments: [development, production, staging]',
        'changeRequests:',
        '  production: { requiredApprovals: 2 }',
        'flags:',
        '  ops-kill-switch:',
        '    type: kill-switch',
        '    environments:',
        '      staging:',
        '        enabled: true',
        '        strategies:',
        '          - name: default',
        '            constraints: [{ contextName: region, operator: IN, values: [eu] }]',
        '',
      ].join('\n'),
    );
    const plan = await bunting(['plan', '--dir', dir], env);
    expect(plan.stdout).toContain('+ context field region: 2 legal value(s)');
    expect(plan.stdout).toContain('+ release template gradual: 2 milestone(s)');
    expect(plan.stdout).toContain('+ environment staging: used by the project');
    expect(plan.stdout).toContain('+ change requests in production: required, 2 approval(s)');
    const applied = await bunting(['apply', '--dir', dir], env);
    expect(applied.code, applied.stderr).toBe(0);
    const region = (await stack.admin.get('/api/admin/context/region')).body;
    expect(region).toMatchObject({
      description: 'Where the user is',
      legalValues: [{ value: 'eu' }, { value: 'us', description: 'The Americas' }],
    });
    const templates = (await stack.admin.get('/api/admin/release-plan-templates')).body;
    const gradual = templates.find((template: { name: string }) => template.name === 'gradual');
    expect(gradual.milestones.map((milestone: { name: string }) => milestone.name)).toEqual([
      'Ten per cent',
      'Everyone',
    ]);
    expect(gradual.milestones[0].transitionCondition).toEqual({ intervalMinutes: 60 });
    const config = (await stack.admin.get('/api/admin/projects/ops/change-requests/config')).body;
    expect(config.find((entry: { environment: string }) => entry.environment === 'production')).toMatchObject({
      changeRequestEnabled: true,
      requiredApprovals: 2,
    });
    const flagState = (await stack.admin.get('/api/admin/projects/ops/features/ops-kill-switch')).body;
    expect(flagState.environments.find((item: { name: string }) => item.name === 'staging').enabled).toBe(true);
    expect((await bunting(['plan', '--dir', dir], env)).code).toBe(0);

    const out = await mkdtemp(join(tmpdir(), 'bunting-export-'));
    expect((await bunting(['export', '--project', 'ops', '--out', out], env)).code).toBe(0);
    const exported = parse(await readFile(join(out, 'ops.yaml'), 'utf8'));
    expect(exported).toMatchObject({
      environments: ['development', 'production', 'staging'],
      changeRequests: { production: { requiredApprovals: 2 } },
    });
    const instance = parse(await readFile(join(out, 'instance.yaml'), 'utf8'));
    expect(instance.contextFields.region.legalValues).toHaveLength(2);
    expect(instance.releaseTemplates.gradual.milestones).toHaveLength(2);
    expect((await bunting(['plan', '--dir', out], env)).code).toBe(0);
  });
});

describe('bunting generate', () => {
  it('writes typed accessors that compile and answer through OFREP, and the OpenFeature manifest', async () => {
    // Inside the repository, so the accessors resolve @openfeature/server-sdk as an application's would.
    const out = await mkdtemp(join(fileURLToPath(new URL('..', import.meta.url)), '.generated-'));
    try {
      const file = join(out, 'flags.ts');
      expect((await bunting(['generate', '--out', file], env)).code).toBe(0);
      const code = await readFile(file, 'utf8');
      expect(code).toContain(
        'export const checkoutV2 = (client: Client, context?: EvaluationContext): Promise<boolean> =>',
      );
      expect(code).toContain('client.getStringValue("checkout-banner", "Try the new checkout", context);');
      await writeFile(
        join(out, 'use.ts'),
        "import { OpenFeature } from '@openfeature/server-sdk';\nimport { checkoutV2 } from './flags.ts';\n" +
          "const on: boolean = await checkoutV2(OpenFeature.getClient(), { targetingKey: 'u1' });\nexport { on };\n",
      );
      const compiled = await typecheck(out);
      expect(compiled.code, compiled.output).toBe(0);

      const token = await stack.admin.post('/api/admin/api-tokens', {
        tokenName: 'generated-accessors',
        type: 'client',
        environment: 'development',
        projects: ['*'],
      });
      const features = OpenFeature.getClient('generated');
      await OpenFeature.setProviderAndWait(
        'generated',
        new OFREPProvider({ baseUrl: stack.url, headers: { Authorization: token.body.secret } }),
      );
      const accessors = (await import(file)) as Record<string, (client: unknown, context?: object) => Promise<unknown>>;
      // checkout-banner depends on checkout-v2, which is on for half of the beta users with app version 2.1.0 or later.
      const beta = { targetingKey: 'u1', email: 'a@example.com', appVersion: '2.2.0' };
      const expected = (
        await stack.anonymous.post(
          '/ofrep/v1/evaluate/flags/checkout-v2',
          { context: beta },
          { authorization: token.body.secret },
        )
      ).body.value;
      expect(await accessors['checkoutV2']!(features, beta)).toBe(expected);
      expect(await accessors['checkoutV2']!(features, { targetingKey: 'u1', email: 'a@elsewhere.org' })).toBe(false);
      await OpenFeature.clearProviders();
    } finally {
      await rm(out, { recursive: true, force: true });
    }
    const manifest = JSON.parse((await bunting(['generate', '--format', 'openfeature'], env)).stdout);
    expect(manifest.flags['checkout-v2']).toEqual({
      flagType: 'boolean',
      defaultValue: false,
      description: 'The new checkout',
    });
  });
});

/** tsc over a directory's files, strict, as an application on Node 24 would compile them. */
function typecheck(dir: string): Promise<{ code: number; output: string }> {
  const tsc = fileURLToPath(new URL('../../../node_modules/.bin/tsc', import.meta.url));
  const args = [
    '--noEmit',
    '--strict',
    '--target',
    'es2024',
    '--module',
    'nodenext',
    '--allowImportingTsExtensions',
    '--skipLibCheck',
  ];
  return new Promise((resolve) => {
    execFile(tsc, [...args, join(dir, 'flags.ts'), join(dir, 'use.ts')], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? 1 : 0, output: `${stdout}${stderr}` }),
    );
  });
}
