import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  httpClient,
  isolate,
  loginAs,
  startServiceProcess,
  type Isolation,
  type ServiceProcess,
} from '@bunting/test-stack';

/**
 * The log of a whole story, read as an operator would: one JSON line per request, whose id error answers carry,
 * and not one of the secrets the story used.
 */
let isolation: Isolation;
let server: ServiceProcess;
const logFile = join(tmpdir(), `bunting-request-log-${process.pid}-${Date.now()}.log`);
const adminToken = '*:*.log-admin-secret-4242';
const clientToken = 'default:development.log-client-secret-4242';
const frontendToken = 'default:development.log-frontend-secret-4242';
const password = 'log-password-secret-4242';

beforeAll(async () => {
  isolation = await isolate();
  server = await startServiceProcess(
    'all',
    {
      ...isolation.env,
      LOG_LEVEL: 'info',
      INIT_ADMIN_API_TOKENS: adminToken,
      INIT_CLIENT_API_TOKENS: clientToken,
      INIT_FRONTEND_API_TOKENS: frontendToken,
    },
    { logFile },
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await isolation?.cleanup();
  await rm(logFile, { force: true });
});

describe('request logs', () => {
  it('write one line per request with its id, which error answers carry, and never a secret', async () => {
    const secrets = [adminToken, clientToken, frontendToken, password];
    const admin = httpClient(server.url, { authorization: adminToken });
    await admin.post('/api/admin/projects/default/features', { name: 'logged-flag' });
    await admin.post('/api/admin/user-admin', { username: 'logger', rootRole: 'Admin', password });
    const person = await loginAs(server.url, 'logger', password);
    const pat = await person.post('/api/admin/user/tokens', {
      description: 'script',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    secrets.push(pat.body.secret);
    await httpClient(server.url, { authorization: pat.body.secret }).get('/api/admin/projects');
    const endpoint = await admin.post('/api/admin/signal-endpoints', { name: 'logged' });
    const signalToken = (await admin.post(`/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, { name: 'sender' }))
      .body.token as string;
    secrets.push(signalToken);
    await httpClient(server.url, { authorization: `Bearer ${signalToken}` }).post('/api/signal-endpoint/logged', {
      password: 'in-a-signal-secret-4242',
    });
    secrets.push('in-a-signal-secret-4242');
    await admin.post('/api/admin/auth/oidc/settings', {
      enabled: false,
      discoverUrl: 'https://id.example.com/.well-known/openid-configuration',
      clientId: 'bunting',
      secret: 'oidc-client-secret-4242',
    });
    secrets.push('oidc-client-secret-4242');
    await httpClient(server.url, { authorization: clientToken }).get('/api/client/features');
    await httpClient(server.url, { authorization: frontendToken }).get('/api/frontend?userId=someone');
    await httpClient(server.url, { authorization: 'not-a-token-secret-4242' }).get('/api/admin/projects');
    secrets.push('not-a-token-secret-4242');
    const refused = await admin.post('/api/admin/projects/default/features', { name: 'logged-flag' });
    expect(refused.status).toBe(409);
    await person.post('/auth/logout');
    await server.stop();

    const raw = await readFile(logFile, 'utf8');
    // The start-up banner for people comes first; the log lines are JSON.
    const lines = raw
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests.length).toBeGreaterThan(10);
    // The error's id is the request's, so the line of the refused request can be found from the answer.
    expect(requests.find((line) => line.reqId === refused.body.id)).toMatchObject({
      method: 'POST',
      route: '/api/admin/projects/:projectId/features',
      status: 409,
    });
    // The SDK edge's successful answers are counted, not logged; its refusals are.
    expect(requests.some((line) => line.path === '/api/frontend')).toBe(false);
    expect(requests.filter((line) => line.status === 401).length).toBeGreaterThanOrEqual(1);
    // The whole output, banner included.
    for (const secret of secrets) expect(raw, 'a secret was logged').not.toContain(secret);
    expect(raw).not.toContain('unleash-session=');
  }, 60_000);
});
