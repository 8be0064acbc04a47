import { execFile } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { projectDir } from './flags-as-code.ts';

/**
 * The packages a user installs, installed as a user does: packed (`npm pack` builds them), the tarball installed in a
 * directory outside this repository, and run there with the machine's own Node and npm (not the repository's), so
 * nothing of the workspace can leak in.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
// The machine's tools only: no node_modules/.bin of this repository on the path.
const PATH = '/usr/local/bin:/usr/bin:/bin';
let stack: TestStack;

function sh(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { HOME: process.env['HOME'] ?? '/root', PATH, ...env }, timeout: 240_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Packs a workspace package and installs the tarball into a fresh directory; returns that directory. */
async function installPacked(workspace: string): Promise<string> {
  const packs = await mkdtemp(join(tmpdir(), 'bunting-pack-'));
  // The pack runs the package's build with the repository's Node (it reads TypeScript); the install uses the machine's.
  const packed = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(
      'npm',
      ['pack', '-w', workspace, '--pack-destination', packs],
      { cwd: ROOT, timeout: 240_000 },
      (error, _out, stderr) => resolve({ code: error ? 1 : 0, stderr }),
    ),
  );
  expect(packed.code, packed.stderr).toBe(0);
  const [tarball] = await readdir(packs);
  const app = await mkdtemp(join(tmpdir(), 'bunting-app-'));
  await writeFile(join(app, 'package.json'), '{ "name": "an-app", "private": true, "type": "module" }\n');
  const installed = await sh(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packs, tarball!)],
    app,
  );
  expect(installed.code, installed.stderr).toBe(0);
  return app;
}

beforeAll(async () => {
  stack = await startTestStack();
}, 120_000);
afterAll(() => stack?.dispose());

it("installs the CLI from its packed tarball and runs it with the machine's Node", { timeout: 300_000 }, async () => {
  const app = await installPacked('@bunting/cli');
  const help = await sh('npx', ['--no', '--', 'bunting', '--help'], app);
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout).toContain('bunting plan');
  const dir = await projectDir(
    'project: default\nflags:\n  from-a-tarball:\n    description: Installed from npm pack\n',
  );
  const env = { BUNTING_URL: stack.url, BUNTING_TOKEN: stack.adminToken };
  const applied = await sh('npx', ['--no', '--', 'bunting', 'apply', '--dir', dir], app, env);
  expect(applied.code, applied.stderr).toBe(0);
  expect((await stack.admin.get('/api/admin/projects/default/features/from-a-tarball')).body.description).toBe(
    'Installed from npm pack',
  );
  expect((await sh('npx', ['--no', '--', 'bunting', 'plan', '--dir', dir], app, env)).code).toBe(0);
});

it(
  'installs @bunting/mcp from its packed tarball, and an MCP client runs its tools through it',
  { timeout: 300_000 },
  async () => {
    const app = await installPacked('@bunting/mcp');
    const client = new Client({ name: 'packaged-check', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['--no', 'bunting-mcp'],
        cwd: app,
        env: { HOME: process.env['HOME'] ?? '/root', PATH, BUNTING_URL: stack.url, BUNTING_TOKEN: stack.adminToken },
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_flag');
      const made = await client.callTool({
        name: 'create_flag',
        arguments: { project: 'default', name: 'from-the-mcp-tarball', description: 'made by the packed server' },
      });
      expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
      expect((await stack.admin.get('/api/admin/projects/default/features/from-the-mcp-tarball')).status).toBe(200);
    } finally {
      await client.close();
    }
  },
);
