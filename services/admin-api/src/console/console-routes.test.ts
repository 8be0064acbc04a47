import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
let dist: string;
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

beforeAll(async () => {
  // A stand-in build, so this test does not depend on Vite.
  dist = await mkdtemp(path.join(tmpdir(), 'bunting-console-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dist, 'assets', 'app-abc123.js'), SCRIPT);
  await writeFile(path.join(dist, 'assets', 'app-abc123.js.gz'), gzipSync(SCRIPT));
  stack = await startTestStack({ env: { CONSOLE_DIR: dist } });
});
afterAll(async () => {
  await stack?.dispose();
  await rm(dist, { recursive: true, force: true });
});

const get = (pathname: string, headers: Record<string, string> = {}) => fetch(`${stack.url}${pathname}`, { headers });

describe('the console served by admin-api', () => {
  it('answers the page addresses with index.html, a CSP without inline scripts, no-cache and an ETag', async () => {
    // A flag's name may hold dots (checkout.new-flow): its page's address is a page, not a file.
    for (const pathname of [
      '/',
      '/login',
      '/projects/default/features/checkout',
      '/projects/default/features/checkout.new-flow',
      '/projects/web.shop/features/a.b.c/history',
      '/playground',
      '/admin/users',
    ]) {
      const answer = await get(pathname);
      expect(answer.status, pathname).toBe(200);
      expect(await answer.text()).toBe(INDEX);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = answer.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
    const etag = (await get('/')).headers.get('etag')!;
    const unchanged = await get('/projects', { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
  });

  it('serves hashed assets for good, compressed when the browser accepts it', async () => {
    const plain = await get('/assets/app-abc123.js', { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await plain.text()).toBe(SCRIPT);
    const gzipped = await fetch(`${stack.url}/assets/app-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(await gzipped.text()).toBe(SCRIPT);
    expect((await get('/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('keeps API answers and unknown files as they were, and nothing outside the build is reachable', async () => {
    const api = await get('/api/admin/no-such-route');
    expect(api.headers.get('content-type')).toContain('application/json');
    expect([401, 404]).toContain(api.status);
    expect((await get('/api/frontend/nothing/here')).headers.get('content-type')).toContain('application/json');
    expect((await get('/assets/missing-123.js')).status).toBe(404);
    for (const pathname of ['/assets/..%2f..%2fpackage.json', '/..%2fpackage.json', '/index.html', '/logout']) {
      const answer = await get(pathname);
      expect(answer.status, pathname).toBe(404);
      expect(((await answer.json()) as { name: string }).name).toBe('NotFoundError');
    }
    // A deeper address is a page (a flag's name may look like a file's): it gets the console, never a file.
    expect(await (await get('/%2e%2e/%2e%2e/etc/passwd.txt')).text()).toBe(INDEX);
    const malformed = await get('/bad%E0%A4%A.js');
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('content-type')).toContain('application/json');
  });
});

describe('without a built console', () => {
  it('says how to build it instead of failing', async () => {
    const empty = await startTestStack({ env: { CONSOLE_DIR: path.join(tmpdir(), 'bunting-no-console-here') } });
    try {
      const answer = await fetch(`${empty.url}/projects`);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { message: string }).message).toContain('npm run build -w console');
    } finally {
      await empty.dispose();
    }
  });
});
