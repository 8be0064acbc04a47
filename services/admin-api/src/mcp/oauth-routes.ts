import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  NoContent, OAuthAuthorizeQuery, OAuthClientInformation, OAuthClientRegistration, OAuthConsentAnswer, OAuthConsentDecision, OAuthConsentRequest,
  OAuthError, OAuthProtectedResourceMetadata, OAuthServerMetadata, OAuthTokenAnswer, OAuthTokenRequest,
} from '@bunting/contracts';
import { DomainError, NotFoundError, ValidationError, acceptFormBodies, principalOf, sendError, type HttpServer } from '@bunting/platform';
import { viaLabel } from '@bunting/mcp';
import type { AdminDeps } from '../app-deps.ts';
import { patService } from '../personal-access-tokens/pat-service.ts';
import { loadRemoteMcp } from './remote-mcp-setting.ts';
import { oauthGrants } from './oauth-grants.ts';
import { acceptableRedirect, verifierMatches } from './pkce.ts';

/** How long a token issued to an MCP client lasts, as in Unleash: a day, then the client signs in again. */
const TOKEN_HOURS = 24;
const MCP_PATH = '/api/admin/mcp';

/**
 * The OAuth flow MCP clients use to get a token without a person pasting one: they discover it from the MCP
 * endpoint's 401, register themselves, send the person to /oauth/authorize, which hands over to the console's
 * consent page (signing in first if need be); the person allows it, and the client trades the code (with its PKCE
 * verifier) for a personal access token of that person lasting 24 hours.
 */
export function oauthRoutes(app: HttpServer, { db, changes, redis, namespace, config }: Pick<AdminDeps, 'db' | 'changes' | 'redis' | 'namespace' | 'config'>) {
  const grants = oauthGrants(redis, namespace);
  const baseOf = (request: FastifyRequest) => (config.baseUrlConfigured ? config.baseUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`);
  const requireOn = async () => {
    if (!(await loadRemoteMcp(db)).enabled) throw new NotFoundError('The remote MCP server is turned off on this instance.');
  };

  const resourceMetadata = async (request: FastifyRequest) => {
    await requireOn();
    const base = baseOf(request);
    return { resource: `${base}${MCP_PATH}`, authorization_servers: [base], bearer_methods_supported: ['header'], resource_name: 'Bunting MCP server' };
  };
  for (const url of [`/.well-known/oauth-protected-resource${MCP_PATH}`, '/.well-known/oauth-protected-resource']) {
    app.get(url, { schema: { summary: "Where the MCP endpoint's tokens come from (OAuth protected resource metadata, RFC 9728)", response: { 200: OAuthProtectedResourceMetadata } } }, resourceMetadata);
  }

  app.get('/.well-known/oauth-authorization-server', { schema: { summary: 'The OAuth endpoints MCP clients sign in through (RFC 8414)', response: { 200: OAuthServerMetadata } } }, async (request) => {
    await requireOn();
    const base = baseOf(request);
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    };
  });

  app.post('/oauth/register', { schema: { summary: 'Register an MCP client (OAuth dynamic client registration, RFC 7591)', body: OAuthClientRegistration, response: { 201: OAuthClientInformation } } }, async (request, reply) => {
    await requireOn();
    const refused = request.body.redirect_uris.find((uri) => !acceptableRedirect(uri));
    if (refused !== undefined) throw ValidationError.field('redirect_uris', `${refused} is not a redirect address Bunting sends codes to: use https, http on localhost, or an app's own scheme`);
    const client = { clientId: randomUUID(), clientName: (request.body.client_name ?? '').trim() || 'MCP client', redirectUris: request.body.redirect_uris, issuedAt: Math.floor(Date.now() / 1000) };
    await grants.saveClient(client);
    return reply.code(201).header('cache-control', 'no-store').send({
      client_id: client.clientId, client_id_issued_at: client.issuedAt, client_name: client.clientName, redirect_uris: client.redirectUris,
      token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'],
    });
  });

  app.get('/oauth/authorize', { schema: { summary: "Start an MCP client's sign-in: checks the request and hands over to the console's consent page", querystring: OAuthAuthorizeQuery, response: { 302: NoContent } } }, async (request, reply) => {
    await requireOn();
    const query = request.query;
    const client = await grants.client(query.client_id);
    // Until the client and its address are known good, nothing is sent back to that address.
    if (!client) throw ValidationError.field('client_id', 'is not a registered client: register with POST /oauth/register');
    if (!client.redirectUris.includes(query.redirect_uri)) throw ValidationError.field('redirect_uri', 'is not one of the addresses the client registered');
    if (query.response_type !== 'code') return sendBack(reply, query.redirect_uri, query.state, 'unsupported_response_type', 'only "code" is offered');
    if (query.code_challenge_method !== 'S256') return sendBack(reply, query.redirect_uri, query.state, 'invalid_request', 'PKCE with code_challenge_method=S256 is required');
    const id = randomBytes(24).toString('base64url');
    await grants.savePending(id, { clientId: client.clientId, clientName: client.clientName, redirectUri: query.redirect_uri, state: query.state ?? null, codeChallenge: query.code_challenge });
    return reply.redirect(`/oauth/consent?request=${id}`, 302);
  });

  const RequestParams = z.object({ id: z.string().min(1).max(100) });
  const signedInPerson = (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (principal.kind !== 'user' || principal.userId === null) throw new DomainError(403, 'NoAccessError', 'Only a person signed in to the console can let an MCP client act for them.');
    return { userId: principal.userId, username: principal.name };
  };

  app.get('/api/admin/mcp/oauth/requests/:id', { schema: { summary: "An MCP client's request to act for the signed-in person, as the consent page shows it", params: RequestParams, response: { 200: OAuthConsentRequest } } }, async (request) => {
    signedInPerson(request);
    const pending = await grants.pending(request.params.id);
    if (!pending) throw new NotFoundError('This sign-in request has expired or was already answered: start again from the MCP client.');
    return { id: request.params.id, clientName: pending.clientName, redirectHost: hostOf(pending.redirectUri), tokenHours: TOKEN_HOURS };
  });

  app.post('/api/admin/mcp/oauth/requests/:id', { schema: { summary: "Allow or deny an MCP client's request to act for the signed-in person", params: RequestParams, body: OAuthConsentDecision, response: { 200: OAuthConsentAnswer } } }, async (request) => {
    const person = signedInPerson(request);
    const pending = await grants.takePending(request.params.id);
    if (!pending) throw new NotFoundError('This sign-in request has expired or was already answered: start again from the MCP client.');
    if (!request.body.allow) return { redirectTo: withParams(pending.redirectUri, { error: 'access_denied', error_description: 'The person denied the request', state: pending.state }) };
    const code = randomBytes(32).toString('base64url');
    await grants.saveCode(code, { clientId: pending.clientId, clientName: pending.clientName, redirectUri: pending.redirectUri, codeChallenge: pending.codeChallenge, ...person });
    return { redirectTo: withParams(pending.redirectUri, { code, state: pending.state }) };
  });

  // The token endpoint takes the form encoding OAuth prescribes, in its own scope so no other route does.
  app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.post('/oauth/token', {
      schema: {
        summary: "Trade an MCP client's authorization code and PKCE verifier for a personal access token lasting 24 hours",
        body: z.unknown(),
        response: { 200: OAuthTokenAnswer, 400: OAuthError },
      },
      // A body that is not even a form (bad JSON, a list) is RFC 6749's invalid_request too; a dependency that is
      // away keeps the spec's 503.
      errorHandler: (error, request, reply) => {
        const status = (error as { statusCode?: number }).statusCode ?? 500;
        if (status >= 400 && status < 500) return oauthRefusal(request, reply, 'invalid_request', 'the body must be a form (application/x-www-form-urlencoded) with the token request\'s fields');
        return sendError(error, request, reply);
      },
    }, async (request, reply) => {
      await requireOn();
      const refuse = (error: string, description: string) => oauthRefusal(request, reply, error, description);
      const parsed = OAuthTokenRequest.safeParse(request.body);
      if (!parsed.success) return refuse('invalid_request', parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
      const input = parsed.data;
      if (input.grant_type !== 'authorization_code') return refuse('unsupported_grant_type', 'only authorization_code is offered');
      const issued = await grants.takeCode(input.code);
      if (!issued) return refuse('invalid_grant', 'the code is unknown, expired or already used');
      if (issued.clientId !== input.client_id || issued.redirectUri !== input.redirect_uri) return refuse('invalid_grant', 'the code was issued to another client or redirect address');
      if (!verifierMatches(input.code_verifier, issued.codeChallenge)) return refuse('invalid_grant', 'the code_verifier does not match the code_challenge');
      const expiresAt = new Date(Date.now() + TOKEN_HOURS * 3_600_000).toISOString();
      const actor = { createdBy: issued.username, createdByUserId: issued.userId, createdVia: viaLabel({ name: issued.clientName }) };
      const pat = await changes.run({ system: actor }, (change) => patService.create(change, issued.userId, { description: `${issued.clientName} (MCP, ${expiresAt})`, expiresAt }));
      return reply.header('cache-control', 'no-store').send({ access_token: pat.secret!, token_type: 'Bearer', expires_in: TOKEN_HOURS * 3600 });
    });
  });
}

/** RFC 6749's error members, which OAuth clients read, beside the spec's (id, name, message). */
function oauthRefusal(request: FastifyRequest, reply: FastifyReply, error: string, description: string) {
  return reply.code(400).header('cache-control', 'no-store').send({ id: String(request.id), name: 'ValidationError', message: `${error}: ${description}`, error, error_description: description });
}

/** The 401 of the MCP endpoint points clients at the metadata above (RFC 9728's WWW-Authenticate parameter). */
export function challengeHeader(request: FastifyRequest, baseUrl: string | null) {
  const base = baseUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
  return `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource${MCP_PATH}"`;
}

function sendBack(reply: FastifyReply, redirectUri: string, state: string | undefined, error: string, description: string) {
  return reply.redirect(withParams(redirectUri, { error, error_description: description, state: state ?? null }), 302);
}

function withParams(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}

const hostOf = (uri: string) => {
  const url = new URL(uri);
  return url.host || `${url.protocol}//`;
};
