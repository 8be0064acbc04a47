import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '@bunting/platform';
import { eventually, loginAs, startTestStack, type TestStack } from '@bunting/test-stack';
import { bunting } from './flags-as-code.ts';

/**
 * `bunting code-refs` in a real git checkout, as a CI job runs it: it finds the flags the code uses through the SDKs'
 * calls and a team's own pattern, records paths, lines and a few lines around each (or none), and from git history
 * the commit that removed a flag's last reference.
 */
let stack: TestStack;
let repo: string;
const refsOf = async (flag: string) =>
  (await stack.admin.get(`/api/admin/projects/default/features/${flag}/code-references`)).body;
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo }).toString().trim();

beforeAll(async () => {
  stack = await startTestStack();
  for (const name of ['new-checkout', 'old-banner', 'dark-mode'])
    await stack.admin.post('/api/admin/projects/default/features', { name });
  repo = await mkdtemp(join(tmpdir(), 'bunting-refs-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Ada');
  git('config', 'user.email', 'ada@example.com');
  git('remote', 'add', 'origin', 'git@github.com:acme/shop.git');
  await mkdir(join(repo, 'src'));
  await writeFile(
    join(repo, 'src', 'app.ts'),
    [
      "import { unleash, client } from './flags';",
      "if (unleash.isEnabled('new-checkout')) startCheckout();",
      'const banner = await client.getBooleanValue("old-banner", false);',
      "const dark = useFlag('dark-mode');",
      "unleash.isEnabled('not-a-flag-here');",
      '',
    ].join('\n'),
  );
  await writeFile(join(repo, 'config.rb'), 'theme = FLAG("dark-mode")\n');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
}, 120_000);
afterAll(() => stack?.dispose());

const env = () => ({ url: stack.url, token: stack.adminToken });

describe('bunting code-refs', () => {
  it('records where the code uses flags, with a few lines around each and a link to the line', async () => {
    const run = await bunting(['code-refs', '--dir', repo, '--pattern', 'FLAG\\("([\\w-]+)"\\)'], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('4 reference(s) to 3 flag(s) in github.com/acme/shop main');
    expect(run.stdout).toContain('names that are not flags here: not-a-flag-here');
    const checkout = await refsOf('new-checkout');
    expect(checkout.references).toEqual([
      expect.objectContaining({
        repository: 'github.com/acme/shop',
        branch: 'main',
        path: 'src/app.ts',
        line: 2,
        commit: git('rev-parse', 'HEAD'),
        url: 'https://github.com/acme/shop/blob/main/src/app.ts#L2',
        context: [
          "import { unleash, client } from './flags';",
          "if (unleash.isEnabled('new-checkout')) startCheckout();",
          'const banner = await client.getBooleanValue("old-banner", false);',
          "const dark = useFlag('dark-mode');",
        ],
      }),
    ]);
    expect((await refsOf('dark-mode')).references.map((reference: { path: string }) => reference.path)).toEqual([
      'config.rb',
      'src/app.ts',
    ]);
  });

  it("finds the commit that removed a flag's last reference, and sends no source with --context 0", async () => {
    await writeFile(
      join(repo, 'src', 'app.ts'),
      ["import { unleash } from './flags';", "if (unleash.isEnabled('new-checkout')) startCheckout();", ''].join('\n'),
    );
    git('commit', '-q', '-am', 'Remove the old banner');
    const removal = git('rev-parse', 'HEAD');
    const run = await bunting(['code-refs', '--dir', repo, '--context', '0'], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('last reference removed: ');
    expect(run.stdout).toContain(`old-banner (${removal.slice(0, 12)})`);
    const banner = await refsOf('old-banner');
    expect(banner.references).toEqual([]);
    expect(banner.extinctions).toEqual([
      expect.objectContaining({ repository: 'github.com/acme/shop', branch: 'main', commit: removal, author: 'Ada' }),
    ]);
    // The same branch's scan replaced the last one: without the team's pattern, config.rb's use of dark-mode is not
    // found, and its call in app.ts went in the same commit.
    const dark = await refsOf('dark-mode');
    expect(dark.references).toEqual([]);
    expect(dark.extinctions).toEqual([expect.objectContaining({ commit: removal })]);
    expect((await refsOf('new-checkout')).references[0].context).toEqual([]);
  });

  it('takes a scan only from a credential that may change flags', async () => {
    const upload = { repository: 'github.com/acme/shop', branch: 'main', commit: 'abc', references: [] };
    const sdk = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'refs-sdk',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    expect(
      (await stack.anonymous.post('/api/admin/code-references', upload, { authorization: sdk.body.secret })).status,
    ).toBe(403);
    await stack.admin.post('/api/admin/user-admin', {
      username: 'refs-viewer',
      password: 'a-long-password',
      rootRole: 'Viewer',
    });
    const viewer = await loginAs(stack.url, 'refs-viewer', 'a-long-password');
    expect((await viewer.post('/api/admin/code-references', upload)).status).toBe(403);
    expect((await refsOf('new-checkout')).references).toHaveLength(1);
    expect((await viewer.get('/api/admin/projects/default/features/new-checkout/code-references')).status).toBe(200);
  });
});

describe('flags that look safe to remove', () => {
  it('are those no scanned code uses, no SDK evaluated for the days asked, and completed or stale', async () => {
    const project = '/api/admin/projects/default/features';
    for (const name of ['gone-done', 'gone-stale', 'used-done', 'seen-done', 'fresh-done'])
      expect((await stack.admin.post(project, { name })).status).toBe(201);
    for (const name of ['gone-done', 'used-done', 'seen-done', 'fresh-done'])
      expect((await stack.admin.post(`${project}/${name}/lifecycle/complete`, { status: 'kept' })).status).toBeLessThan(
        300,
      );
    await stack.admin.patch(`${project}/gone-stale`, [{ op: 'replace', path: '/stale', value: true }]);
    await stack.admin.post('/api/admin/code-references', {
      repository: 'github.com/acme/api',
      branch: 'main',
      commit: 'abc',
      references: [{ flag: 'used-done', path: 'src/a.ts', line: 1, context: [] }],
    });
    // Forty days pass for all but one.
    await stack.db.query(
      sql.unsafe`update admin.features set created_at = now() - interval '40 days' where name <> 'fresh-done'`,
    );
    // An SDK evaluates one of them now, as Unleash's SDKs report it.
    const sdk = await stack.admin.post('/api/admin/api-tokens', {
      tokenName: 'cleanup-sdk',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    });
    const now = new Date().toISOString();
    const reported = await stack.anonymous.post(
      '/api/client/metrics',
      {
        appName: 'shop',
        instanceId: 'i1',
        bucket: { start: now, stop: now, toggles: { 'seen-done': { yes: 3, no: 0 } } },
      },
      { authorization: sdk.body.secret },
    );
    expect(reported.status).toBeLessThan(300);
    await eventually(async () => (await stack.admin.get(`${project}/seen-done`)).body.lastSeenAt !== null);
    const candidates = (await stack.admin.get('/api/admin/cleanup-candidates?days=30')).body;
    expect(candidates.scannedBranches).toBeGreaterThanOrEqual(2);
    expect(candidates.flags.map((flag: { name: string; reason: string }) => [flag.name, flag.reason])).toEqual([
      ['gone-done', 'completed (kept)'],
      ['gone-stale', 'marked stale'],
    ]);
    const viewer = await loginAs(stack.url, 'refs-viewer', 'a-long-password');
    expect((await viewer.get('/api/admin/cleanup-candidates')).status).toBe(200);
    expect((await stack.admin.get('/api/admin/cleanup-candidates?days=-1')).status).toBe(400);
  });
});
