import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
  registered: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() { return redirectUrl; }
  get clientMetadata() {
    return { client_name: 'e2e-oauth-agent', redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] };
  }
  clientInformation() { return this.registered; }
  saveClientInformation(information: OAuthClientInformationMixed) { this.registered = information; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

const transportFor = (provider: OAuthClientProvider) => new StreamableHTTPClientTransport(new URL(`${stack.url}/api/admin/mcp`), { authProvider: provider });

/** The browser's part: follow /oauth/authorize to the consent page's request, and answer it as the signed-in person. */
async function consent(authorizationUrl: URL, allow: boolean, clientName = 'e2e-oauth-agent'): Promise<URL> {
  const started = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(started.status).toBe(302);
  const consentPage = new URL(started.headers.get('location')!, stack.url);
  expect(consentPage.pathname).toBe('/oauth/consent');
  const id = consentPage.searchParams.get('request')!;
  const shown = await person.get(`/api/admin/mcp/oauth/requests/${id}`);
  expect(shown.body).toEqual({ id, clientName, redirectHost: '127.0.0.1:47613', tokenHours: 24 });
  const decided = await person.post(`/api/admin/mcp/oauth/requests/${id}`, { allow });
  expect(decided.status).toBe(200);
  return new URL(decided.body.redirectTo as string);
}

beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/user-admin', { username: 'oauth-person', password: 'a-long-password', rootRole: 'Editor' });
  person = await loginAs(stack.url, 'oauth-person', 'a-long-password');
});

afterAll(async () => {
  await stack?.dispose();
});

describe('signing an MCP client in with OAuth', () => {
  it('discovers, registers, gets consent and a one-day token, and acts as the person with the client named', async () => {
    const unauthenticated = await fetch(`${stack.url}/api/admin/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${stack.url}/.well-known/oauth-protected-resource/api/admin/mcp"`);

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
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', expires_in: 86_400 });

    const client = new Client({ name: 'e2e-oauth-agent', version: '2.0' });
    await client.connect(transportFor(provider));
    const created = (await client.callTool({ name: 'create_flag', arguments: { project: 'default', name: 'oauth-made' } })) as CallToolResult;
    expect(created.isError).toBeFalsy();
    const tokens = (await person.get('/api/admin/user/tokens')).body.pats as { description: string; expiresAt: string }[];
    const issued = tokens.find((token) => token.description.startsWith('e2e-oauth-agent (MCP'));
    expect(issued).toBeDefined();
    expect(Math.abs(Date.parse(issued!.expiresAt) - Date.now() - 86_400_000)).toBeLessThan(60_000);
    await eventually(async () => {
      const events = (await stack.admin.get('/api/admin/search/events?feature=IS:oauth-made')).body.events as { type: string; createdBy: string; createdVia?: string }[];
      expect(events).toEqual([expect.objectContaining({ type: 'feature-created', createdBy: 'oauth-person', createdVia: 'MCP: e2e-oauth-agent 2.0' })]);
      return true;
    });
    await client.close();

    // The code was used: trading it again is refused.
    const again = await fetch(`${stack.url}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUrl, client_id: provider.registered!.client_id, code_verifier: provider.verifier }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a wrong verifier, a denial, unregistered clients and addresses, and is gone while the server is off', async () => {
    const anonymous = httpClient(stack.url);
    const registered = await anonymous.post('/oauth/register', { client_name: 'checker', redirect_uris: [redirectUrl] });
    expect(registered.status).toBe(201);
    const clientId = registered.body.client_id as string;
    expect((await anonymous.post('/oauth/register', { client_name: 'evil', redirect_uris: ['http://evil.example/cb'] })).status).toBe(400);
    expect((await anonymous.post('/oauth/register', { redirect_uris: [] })).status).toBe(400);

    const verifier = 'v'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = (params: Record<string, string>) => fetch(`${stack.url}/oauth/authorize?${new URLSearchParams({
      response_type: 'code', client_id: clientId, redirect_uri: redirectUrl, code_challenge: challenge, code_challenge_method: 'S256', state: 's-1', ...params,
    })}`, { redirect: 'manual' });
    expect((await authorize({ client_id: 'unknown' })).status).toBe(400);
    expect((await authorize({ redirect_uri: 'http://127.0.0.1:1/elsewhere' })).status).toBe(400);
    const plain = await authorize({ code_challenge_method: 'plain' });
    expect(plain.status).toBe(302);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

    const authorizeUrl = (state: string) => new URL(`${stack.url}/oauth/authorize?${new URLSearchParams({
      response_type: 'code', client_id: clientId, redirect_uri: redirectUrl, code_challenge: challenge, code_challenge_method: 'S256', state,
    })}`);
    const denied = await consent(authorizeUrl('s-1'), false, 'checker');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('s-1');
    expect(denied.searchParams.get('code')).toBeNull();

    // A token or an API token cannot consent: only a person signed in to the console.
    const pending = new URL((await fetch(authorizeUrl('s-2'), { redirect: 'manual' })).headers.get('location')!, stack.url).searchParams.get('request')!;
    expect((await stack.admin.post(`/api/admin/mcp/oauth/requests/${pending}`, { allow: true })).status).toBe(403);
    const allowed = await person.post(`/api/admin/mcp/oauth/requests/${pending}`, { allow: true });
    const code = new URL(allowed.body.redirectTo as string).searchParams.get('code')!;
    // A request is answered once.
    expect((await person.post(`/api/admin/mcp/oauth/requests/${pending}`, { allow: true })).status).toBe(404);
    const trade = (fields: Record<string, string>) => fetch(`${stack.url}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUrl, client_id: clientId, code_verifier: verifier, ...fields }),
    });
    const wrongVerifier = await trade({ code_verifier: 'w'.repeat(64) });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) });
    // The failed attempt spent the code, as RFC 6749 advises.
    expect(await (await trade({})).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await trade({ grant_type: 'password' })).json()).toMatchObject({ error: 'unsupported_grant_type' });
    expect(await (await fetch(`${stack.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code' })).json())
      .toMatchObject({ error: 'invalid_request' });

    expect((await stack.admin.put('/api/admin/remote-mcp/settings', { enabled: false })).status).toBe(204);
    expect((await fetch(`${stack.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
    expect((await fetch(authorizeUrl('s-3'), { redirect: 'manual' })).status).toBe(404);
    expect((await stack.admin.put('/api/admin/remote-mcp/settings', { enabled: true })).status).toBe(204);
    const metadata = await (await fetch(`${stack.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ issuer: stack.url, token_endpoint: `${stack.url}/oauth/token`, code_challenge_methods_supported: ['S256'] });
  });
});
