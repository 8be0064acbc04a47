import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request as httpRequest } from 'node:http';
import { sql } from '@bunting/platform';
import { eventually, httpClient, loginAs, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

/**
 * An MCP client signing in the way real ones do, with the official SDK's OAuth support: discovery from the MCP
 * endpoint's 401, dynamic registration, authorization code with PKCE, the person's consent through the console's
 * endpoints, and the code traded for a personal access token lasting a day, which then drives the tools.
 */
let stack: TestStack;
let person: HttpClient;
const redirectUrl = 'http://127.0.0.1:47613/callback';

/** What an MCP client keeps between the steps, in memory; "the browser" is this test, signed in as the person. */
class TestProvider implements OAuthClientProvider {
  readonly name: string;
  constructor(name = 'e2e-oauth-agent') {
    this.name = name;
  }
  registered: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return redirectUrl;
  }
  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [redirectUrl],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    };
  }
  clientInformation() {
    return this.registered;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.registered = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const transportFor = (provider: OAuthClientProvider) =>
  new StreamableHTTPClientTransport(new URL(`${stack.url}/api/admin/mcp`), { authProvider: provider });

/** The browser's part: follow /oauth/authorize to the consent page's request, and answer it as the signed-in person. */
async function consent(
  authorizationUrl: URL,
  allow: boolean,
  clientName = 'e2e-oauth-agent',
  scopes?: string[],
  as: HttpClient = person,
): Promise<URL> {
  const started = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(started.status).toBe(302);
  const consentPage = new URL(started.headers.get('location')!, stack.url);
  expect(consentPage.pathname).toBe('/oauth/consent');
  const id = consentPage.searchParams.get('request')!;
  const shown = await as.get(`/api/admin/mcp/oauth/requests/${id}`);
  expect(shown.body).toEqual({
    id,
    clientName,
    redirectHost: '127.0.0.1:47613',
    tokenHours: 24,
    scopes: ['mcp:read', 'mcp:write'],
    resource: `${stack.url}/api/admin/mcp`,
  });
  const decided = await as.post(`/api/admin/mcp/oauth/requests/${id}`, { allow, ...(scopes ? { scopes } : {}) });
  expect(decided.status).toBe(200);
  return new URL(decided.body.redirectTo as string);
}

/** A whole sign-in with the SDK's OAuth client, for some scopes; the provider then holds the token. */
async function signIn(clientName: string, scopes?: string[], as: HttpClient = person): Promise<TestProvider> {
  const provider = new TestProvider(clientName);
  const first = new Client({ name: clientName, version: '1.0' });
  await expect(first.connect(transportFor(provider))).rejects.toBeInstanceOf(UnauthorizedError);
  const back = await consent(provider.authorizationUrl!, true, clientName, scopes, as);
  await transportFor(provider).finishAuth(back.searchParams.get('code')!);
  return provider;
}

async function connected(provider: TestProvider, clientName: string): Promise<Client> {
  const client = new Client({ name: clientName, version: '1.0' });
  await client.connect(transportFor(provider));
  return client;
}

/** A POST with headers fetch will not send as given (Host). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

beforeAll(async () => {
  // Every client of this file registers from this one address.
  stack = await startTestStack({ env: { OAUTH_REGISTRATIONS_PER_ADDRESS: '40' } });
  await stack.admin.post('/api/admin/user-admin', {
    username: 'oauth-person',
    password: 'a-long-password',
    rootRole: 'Editor',
  });
  person = await loginAs(stack.url, 'oauth-person', 'a-long-password');
});

afterAll(async () => {
  await stack?.dispose();
});

describe('signing an MCP client in with OAuth', () => {
  it('discovers, registers, gets consent and a one-day token, and acts as the person with the client named', async () => {
    const unauthenticated = await fetch(`${stack.url}/api/admin/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${stack.url}/.well-known/oauth-protected-resource/api/admin/mcp", scope="mcp:read mcp:write"`,
    );

    const provider = new TestProvider();
    const first = new Client({ name: 'e2e-oauth-agent', version: '2.0' });
    await expect(first.connect(transportFor(provider))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.registered?.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(provider.authorizationUrl?.pathname).toBe('/oauth/authorize');
    expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');

    const back = await consent(provider.authorizationUrl!, true);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUrl);
    const code = back.searchParams.get('code')!;
    const transport = transportFor(provider);
    await transport.finishAuth(code);
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', expires_in: 86_400, scope: 'mcp:read mcp:write' });
    expect(provider.saved?.access_token).toMatch(/^agent:[0-9a-f]{56}$/);

    const client = new Client({ name: 'e2e-oauth-agent', version: '2.0' });
    await client.connect(transportFor(provider));
    const created = (await client.callTool({
      name: 'create_flag',
      arguments: { project: 'default', name: 'oauth-made' },
    })) as CallToolResult;
    expect(created.isError).toBeFalsy();
    // Listed among the person's connected agents, not their personal access tokens.
    expect((await person.get('/api/admin/user/tokens')).body.pats).toEqual([]);
    const agents = (await person.get('/api/admin/user/agents')).body.agents as {
      clientName: string;
      scopes: string[];
      expiresAt: string;
      resource: string;
    }[];
    expect(agents).toEqual([
      expect.objectContaining({
        clientName: 'e2e-oauth-agent',
        scopes: ['mcp:read', 'mcp:write'],
        resource: `${stack.url}/api/admin/mcp`,
      }),
    ]);
    expect(Math.abs(Date.parse(agents[0]!.expiresAt) - Date.now() - 86_400_000)).toBeLessThan(60_000);
    await eventually(async () => {
      const events = (await stack.admin.get('/api/admin/search/events?feature=IS:oauth-made')).body.events as {
        type: string;
        createdBy: string;
        createdVia?: string;
      }[];
      expect(events).toEqual([
        expect.objectContaining({
          type: 'feature-created',
          createdBy: 'oauth-person',
          createdVia: 'MCP: e2e-oauth-agent 2.0',
        }),
      ]);
      return true;
    });
    await client.close();

    // The code was used: trading it again is refused.
    const again = await fetch(`${stack.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUrl,
        client_id: provider.registered!.client_id,
        code_verifier: provider.verifier,
      }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    // Both are in the sign-in history: the grant to the agent, and the code tried again.
    const history = (await stack.admin.get('/api/admin/access-history?method=oauth')).body.entries;
    expect(history.slice(0, 2)).toMatchObject([
      { action: 'granted', outcome: 'failure', detail: 'invalid_grant: the code is unknown, expired or already used' },
      { action: 'granted', outcome: 'success', detail: expect.stringMatching(/^agent /) },
    ]);
  });

  it('refuses a wrong verifier, a denial, unregistered clients and addresses, and is gone while the server is off', async () => {
    const anonymous = httpClient(stack.url);
    const registered = await anonymous.post('/oauth/register', {
      client_name: 'checker',
      redirect_uris: [redirectUrl],
    });
    expect(registered.status).toBe(201);
    const clientId = registered.body.client_id as string;
    expect(
      (await anonymous.post('/oauth/register', { client_name: 'evil', redirect_uris: ['http://evil.example/cb'] }))
        .status,
    ).toBe(400);
    expect((await anonymous.post('/oauth/register', { redirect_uris: [] })).status).toBe(400);

    const verifier = 'v'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = (params: Record<string, string>) =>
      fetch(
        `${stack.url}/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: redirectUrl,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 's-1',
          ...params,
        })}`,
        { redirect: 'manual' },
      );
    // Before a person has signed in and seen the client's name, nothing is sent to the client's address: a page says why.
    const refusals: Record<string, string>[] = [
      { client_id: 'unknown' },
      { redirect_uri: 'http://127.0.0.1:1/elsewhere' },
      { code_challenge_method: 'plain' },
      { response_type: 'token' },
      { scope: 'mcp:read admin' },
      { resource: 'https://elsewhere.example/mcp' },
    ];
    for (const params of refusals) {
      const refused = await authorize(params);
      expect(
        [refused.status, refused.headers.get('location'), refused.headers.get('content-type')],
        JSON.stringify(params),
      ).toEqual([400, null, 'text/html; charset=utf-8']);
      expect(await refused.text()).toContain('cannot be connected');
    }

    const authorizeUrl = (state: string) =>
      new URL(
        `${stack.url}/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: redirectUrl,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state,
        })}`,
      );
    const denied = await consent(authorizeUrl('s-1'), false, 'checker', undefined);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('s-1');
    expect(denied.searchParams.get('code')).toBeNull();

    // A token or an API token cannot consent: only a person signed in to the console.
    const pending = new URL(
      (await fetch(authorizeUrl('s-2'), { redirect: 'manual' })).headers.get('location')!,
      stack.url,
    ).searchParams.get('request')!;
    expect((await stack.admin.post(`/api/admin/mcp/oauth/requests/${pending}`, { allow: true })).status).toBe(403);
    const allowed = await person.post(`/api/admin/mcp/oauth/requests/${pending}`, { allow: true });
    const code = new URL(allowed.body.redirectTo as string).searchParams.get('code')!;
    // A request is answered once.
    expect((await person.post(`/api/admin/mcp/oauth/requests/${pending}`, { allow: true })).status).toBe(404);
    const trade = (fields: Record<string, string>) =>
      fetch(`${stack.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUrl,
          client_id: clientId,
          code_verifier: verifier,
          ...fields,
        }),
      });
    const wrongVerifier = await trade({ code_verifier: 'w'.repeat(64) });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/code_verifier/),
    });
    // The failed attempt spent the code, as RFC 6749 advises.
    expect(await (await trade({})).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await trade({ grant_type: 'password' })).json()).toMatchObject({ error: 'unsupported_grant_type' });
    expect(
      await (
        await fetch(`${stack.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=authorization_code',
        })
      ).json(),
    ).toMatchObject({ error: 'invalid_request' });

    expect((await stack.admin.put('/api/admin/remote-mcp/settings', { enabled: false })).status).toBe(204);
    expect((await fetch(`${stack.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
    expect((await fetch(authorizeUrl('s-3'), { redirect: 'manual' })).status).toBe(404);
    expect((await stack.admin.put('/api/admin/remote-mcp/settings', { enabled: true })).status).toBe(204);
    const metadata = await (await fetch(`${stack.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: stack.url,
      token_endpoint: `${stack.url}/oauth/token`,
      code_challenge_methods_supported: ['S256'],
    });
  });
});

describe("an agent's token", () => {
  it('works at the MCP endpoint only: every other route, and minting or listing tokens, refuse it', async () => {
    const provider = await signIn('bounded-agent');
    const token = provider.saved!.access_token;
    const agent = httpClient(stack.url, { authorization: `Bearer ${token}` });
    for (const [method, path, body] of [
      ['GET', '/api/admin/user-admin'],
      ['GET', '/api/admin/projects'],
      ['GET', '/api/admin/user'],
      ['GET', '/api/admin/events'],
      ['GET', '/api/admin/user/tokens'],
      ['POST', '/api/admin/user/tokens', { description: 'forever', expiresAt: '2099-01-01T00:00:00Z' }],
      ['GET', '/api/admin/api-tokens'],
      [
        'POST',
        '/api/admin/api-tokens',
        { tokenName: 'x', type: 'backend', environment: 'development', projects: ['*'] },
      ],
      ['GET', '/api/admin/user/agents'],
      ['GET', '/api/admin/impact-metrics/metadata'],
      ['POST', '/api/admin/projects/default/features', { name: 'sneaky' }],
    ] as const) {
      const answer = await agent.call(method, path, body);
      expect([path, answer.status]).toEqual([path, 403]);
      expect(answer.body.message).toMatch(/issued to an MCP client/);
    }
    // Bearer or bare, the same.
    expect((await httpClient(stack.url, { authorization: token }).get('/api/admin/user-admin')).status).toBe(403);
    const client = await connected(provider, 'bounded-agent');
    const listed = (await client.callTool({ name: 'list_flags', arguments: { project: 'default' } })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    await client.close();
    expect((await stack.admin.get('/api/admin/search/features?query=sneaky')).body.features).toEqual([]);
  });

  it('carries the scopes consented to: read only can read and change nothing', async () => {
    const provider = await signIn('reading-agent', ['mcp:read']);
    expect(provider.saved?.scope).toBe('mcp:read');
    const client = await connected(provider, 'reading-agent');
    const read = (await client.callTool({ name: 'list_flags', arguments: { project: 'default' } })) as CallToolResult;
    expect(read.isError).toBeFalsy();
    const write = (await client.callTool({
      name: 'create_flag',
      arguments: { project: 'default', name: 'read-only-made' },
    })) as CallToolResult;
    expect(write.isError).toBe(true);
    expect(JSON.stringify(write.content)).toMatch(/permission/);
    await client.close();
    expect((await stack.admin.get('/api/admin/projects/default/features/read-only-made')).status).toBe(404);
    // Nothing beyond what was asked: a grant of scopes the client did not ask for is refused.
    const pending = new TestProvider('greedy');
    await expect(new Client({ name: 'greedy', version: '1' }).connect(transportFor(pending))).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    pending.authorizationUrl!.searchParams.set('scope', 'mcp:read');
    const started = await fetch(pending.authorizationUrl!, { redirect: 'manual' });
    const id = new URL(started.headers.get('location')!, stack.url).searchParams.get('request')!;
    expect((await person.get(`/api/admin/mcp/oauth/requests/${id}`)).body.scopes).toEqual(['mcp:read']);
    expect(
      (await person.post(`/api/admin/mcp/oauth/requests/${id}`, { allow: true, scopes: ['mcp:write'] })).status,
    ).toBe(400);
  });

  it('is listed to its person and to admins, and stops at once when disconnected or when it ends', async () => {
    const provider = await signIn('listed-agent');
    const mine = (await person.get('/api/admin/user/agents')).body.agents as {
      id: number;
      clientName: string;
      userName: string;
    }[];
    const agent = mine.find((entry) => entry.clientName === 'listed-agent')!;
    expect(agent.userName).toBe('oauth-person');
    const everyone = (await stack.admin.get('/api/admin/agents')).body.agents as { id: number }[];
    expect(everyone.map((entry) => entry.id)).toContain(agent.id);
    // Another person cannot see or revoke it; a non-admin cannot list everyone's.
    await stack.admin.post('/api/admin/user-admin', {
      username: 'someone-else',
      password: 'a-long-password',
      rootRole: 'Editor',
    });
    const other = await loginAs(stack.url, 'someone-else', 'a-long-password');
    expect((await other.get('/api/admin/user/agents')).body.agents).toEqual([]);
    expect((await other.delete(`/api/admin/user/agents/${agent.id}`)).status).toBe(404);
    expect((await other.get('/api/admin/agents')).status).toBe(403);

    const client = await connected(provider, 'listed-agent');
    await client.close();
    expect((await person.delete(`/api/admin/user/agents/${agent.id}`)).status).toBe(200);
    const after = await fetch(`${stack.url}/api/admin/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: INITIALIZE,
    });
    expect(after.status).toBe(401);
    await eventually(async () => {
      const events = (await stack.admin.get('/api/admin/search/events?type=IS:pat-deleted')).body.events as {
        data: { kind?: string; id: number };
      }[];
      return events.some((event) => event.data.kind === 'agent' && event.data.id === agent.id);
    });

    // One that reached its end is refused, whatever is left of it.
    const ending = await signIn('ending-agent');
    const endingId = (
      (await person.get('/api/admin/user/agents')).body.agents as { id: number; clientName: string }[]
    ).find((entry) => entry.clientName === 'ending-agent')!.id;
    await stack.db.query(
      sql.unsafe`update admin.agent_tokens set expires_at = now() - interval '1 second' where id = ${endingId}`,
    );
    const expired = await fetch(`${stack.url}/api/admin/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ending.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: INITIALIZE,
    });
    expect(expired.status).toBe(401);
  });

  it("ends with its person's access: deactivated through SCIM, their tokens and approved codes stop working, also after reactivation", async () => {
    expect((await stack.admin.post('/api/admin/scim-settings', { enabled: true })).status).toBe(200);
    const scimToken = (await stack.admin.post('/api/admin/scim-settings/generate-new-token')).body.token as string;
    const scim = httpClient(stack.url, {
      authorization: `Bearer ${scimToken}`,
      'content-type': 'application/scim+json',
    });
    const created = await scim.post('/scim/v2/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'dee@example.com',
      emails: [{ value: 'dee@example.com', primary: true }],
      active: true,
    });
    const user = (
      (await stack.admin.get('/api/admin/user-admin')).body.users as { id: number; username: string }[]
    ).find((entry) => entry.username === 'dee@example.com')!;
    expect((await stack.admin.put(`/api/admin/user-admin/${user.id}`, { rootRole: 'Editor' })).status).toBe(200);
    // Provisioned users get a password through a reset link (an admin cannot set it for them).
    const link = (await stack.admin.post('/api/admin/user-admin/reset-password', { id: 'dee@example.com' })).body
      .resetPasswordUrl as string;
    const resetToken = new URL(link).searchParams.get('token')!;
    expect(
      (await stack.anonymous.post('/auth/reset/password', { token: resetToken, password: 'a-long-password-for-dee' }))
        .status,
    ).toBe(200);
    const dee = await loginAs(stack.url, 'dee@example.com', 'a-long-password-for-dee');
    const provider = await signIn('dees-agent', undefined, dee);

    // A code Dee approved, not yet traded for a token.
    const waiting = new TestProvider('dees-second-agent');
    await expect(new Client({ name: 'x', version: '1' }).connect(transportFor(waiting))).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const back = await consent(waiting.authorizationUrl!, true, 'dees-second-agent', undefined, dee);

    const deactivate = (active: boolean) =>
      scim.patch(`/scim/v2/Users/${created.body.id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: active }],
      });
    expect((await deactivate(false)).status).toBe(200);
    const traded = await fetch(`${stack.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: redirectUrl,
        client_id: waiting.registered!.client_id,
        code_verifier: waiting.verifier,
      }),
    });
    expect(await traded.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'the person who allowed this can no longer sign in',
    });
    expect((await deactivate(true)).status).toBe(200);
    const reactivated = await fetch(`${stack.url}/api/admin/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: INITIALIZE,
    });
    expect(reactivated.status).toBe(401);
    expect(
      (await stack.admin.get('/api/admin/agents')).body.agents.filter(
        (entry: { userName: string }) => entry.userName === 'dee@example.com',
      ),
    ).toEqual([]);
  });
});

describe('registrations and addresses', () => {
  it('takes small registrations, a few per address, kept a day unless used, with safe redirect addresses only', async () => {
    const anonymous = httpClient(stack.url);
    const big = await anonymous.post('/oauth/register', {
      client_name: 'big',
      redirect_uris: [redirectUrl],
      padding: 'x'.repeat(20_000),
    });
    expect(big.status).toBe(413);
    for (const uri of [
      'ws://127.0.0.1/cb',
      'ftp://client.example/cb',
      'view-source:https://client.example/',
      'http://client.example/cb',
      'cursor://x/cb',
    ]) {
      const refused = await anonymous.post('/oauth/register', { client_name: 'schemes', redirect_uris: [uri] });
      expect([uri, refused.status]).toEqual([uri, 400]);
    }
    const native = await anonymous.post('/oauth/register', {
      client_name: 'native',
      redirect_uris: ['com.example.agent:/oauth/callback'],
    });
    expect(native.status).toBe(201);
    const ttl = await stack.redis.ttl(`${stack.isolation.namespace}:oauth:client:${native.body.client_id}`);
    expect(ttl === -2 || ttl <= 86_400).toBe(true);
  });

  it('answers the MCP endpoint and the metadata only under its own names, and refuses pages of other sites', async () => {
    const port = new URL(stack.url).port;
    const token = (await signIn('origin-agent')).saved!.access_token;
    const auth = { authorization: `Bearer ${token}` };
    const evilHost = await rawPost(
      `${stack.url}/api/admin/mcp`,
      { ...auth, host: 'evil.example.com', origin: 'http://evil.example.com' },
      INITIALIZE,
    );
    expect(evilHost.status).toBe(403);
    const evilOrigin = await rawPost(
      `${stack.url}/api/admin/mcp`,
      { ...auth, origin: 'http://evil.example.com' },
      INITIALIZE,
    );
    expect(evilOrigin.status).toBe(403);
    const rebound = await rawPost(
      `${stack.url}/api/admin/mcp`,
      { ...auth, host: `evil.example.com:${port}` },
      INITIALIZE,
    );
    expect(rebound.status).toBe(403);
    const own = await rawPost(
      `${stack.url}/api/admin/mcp`,
      { ...auth, host: `localhost:${port}`, origin: `http://localhost:${port}` },
      INITIALIZE,
    );
    expect(own.status).toBe(200);
    const noOrigin = await rawPost(`${stack.url}/api/admin/mcp`, auth, INITIALIZE);
    expect(noOrigin.status).toBe(200);
    // Metadata is never built from a Host this server does not answer for.
    const metadata = await new Promise<number>((resolve, reject) => {
      httpRequest(
        `${stack.url}/.well-known/oauth-authorization-server`,
        { headers: { host: 'evil.example.com' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(metadata).toBe(403);
  });

  // Last: it uses up this address's registrations.
  it('lets one address register a few clients, then makes it wait', async () => {
    const anonymous = httpClient(stack.url);
    const statuses: number[] = [];
    for (let index = 0; index < 41; index += 1)
      statuses.push(
        (await anonymous.post('/oauth/register', { client_name: `many-${index}`, redirect_uris: [redirectUrl] }))
          .status,
      );
    expect(statuses.at(-1)).toBe(429);
    const refused = await anonymous.post('/oauth/register', { client_name: 'one-more', redirect_uris: [redirectUrl] });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '600']);
  });
});

describe('with a public address configured', () => {
  it('builds the OAuth metadata from it, whatever Host a request names, and answers that host', async () => {
    const configured = await startTestStack({ env: { BUNTING_URL: 'https://flags.example.com' } });
    try {
      expect((await configured.admin.put('/api/admin/remote-mcp/settings', { enabled: true })).status).toBe(204);
      const metadata = await (await fetch(`${configured.url}/.well-known/oauth-authorization-server`)).json();
      expect(metadata).toMatchObject({
        issuer: 'https://flags.example.com',
        token_endpoint: 'https://flags.example.com/oauth/token',
      });
      const resource = await (
        await fetch(`${configured.url}/.well-known/oauth-protected-resource/api/admin/mcp`)
      ).json();
      expect(resource).toMatchObject({
        resource: 'https://flags.example.com/api/admin/mcp',
        authorization_servers: ['https://flags.example.com'],
      });
      const page = await rawPost(
        `${configured.url}/api/admin/mcp`,
        { host: 'flags.example.com', origin: 'https://flags.example.com' },
        INITIALIZE,
      );
      expect(page.status).toBe(401);
      expect(page.headers['www-authenticate']).toContain(
        'resource_metadata="https://flags.example.com/.well-known/oauth-protected-resource/api/admin/mcp"',
      );
      // The address the browser came in on is not the configured origin: a page there is another site, refused with
      // a credential too.
      const person = await loginAs(configured.url, 'admin', 'unleash4all');
      const token = (
        await person.post('/api/admin/user/tokens', {
          description: 'origin',
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        })
      ).body.secret as string;
      expect(
        (
          await rawPost(
            `${configured.url}/api/admin/mcp`,
            { authorization: `Bearer ${token}`, origin: configured.url },
            INITIALIZE,
          )
        ).status,
      ).toBe(403);
      expect(
        (
          await rawPost(
            `${configured.url}/api/admin/mcp`,
            { authorization: `Bearer ${token}`, origin: 'https://flags.example.com' },
            INITIALIZE,
          )
        ).status,
      ).toBe(200);
    } finally {
      await configured.dispose();
    }
  });
});
