import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against the remote MCP server.
 * The suite speaks to an unauthenticated localhost server, so a small proxy in front adds a user's token and passes
 * everything else (Host and Origin included) through unchanged: what the suite checks is what Bunting answers.
 */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
];
const suite = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

let stack: TestStack;
let proxy: Server;
let proxyUrl = '';

type Check = { id: string; status: string; errorMessage?: string };

/** Runs one scenario with Node 24 (the suite needs it) and returns its checks. */
async function runScenario(scenario: string): Promise<Check[]> {
  const output = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    await new Promise<void>((resolve) => {
      execFile(
        process.execPath,
        [suite, 'server', '--url', `${proxyUrl}/mcp`, '--scenario', scenario, '-o', output],
        { timeout: 60_000 },
        () => resolve(),
      );
    });
    const files = readdirSync(output, { recursive: true, encoding: 'utf8' }).filter((name) =>
      name.endsWith('checks.json'),
    );
    expect(files, `the suite wrote no checks for ${scenario}`).not.toEqual([]);
    return files.flatMap((name) => JSON.parse(readFileSync(join(output, name), 'utf8')) as Check[]);
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  stack = await startTestStack();
  expect((await stack.admin.put('/api/admin/remote-mcp/settings', { enabled: true })).status).toBe(204);
  await stack.admin.post('/api/admin/user-admin', {
    username: 'conformance',
    password: 'a-long-password',
    rootRole: 'Editor',
  });
  const person = await loginAs(stack.url, 'conformance', 'a-long-password');
  const token = (
    await person.post('/api/admin/user/tokens', {
      description: 'conformance',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    })
  ).body.secret as string;
  const target = new URL(stack.url);
  proxy = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? '/').replace(/^\/mcp(?=$|[/?])/, '/api/admin/mcp');
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: incoming.method,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://localhost:${(proxy.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await stack?.dispose();
});

describe('the official MCP conformance suite', () => {
  for (const scenario of SCENARIOS) {
    it(`passes ${scenario}`, async () => {
      const checks = await runScenario(scenario);
      const failed = checks.filter((check) => check.status === 'FAILURE');
      expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
      expect(checks.filter((check) => check.status === 'SUCCESS').length).toBeGreaterThan(0);
    }, 90_000);
  }
});
