import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AGENT_SCOPES,
  NoContent,
  OAuthAuthorizeQuery,
  OAuthClientInformation,
  OAuthClientRegistration,
  OAuthConsentAnswer,
  OAuthConsentDecision,
  ErrorBody,
  OAuthConsentRequest,
  OAuthError,
  OAuthProtectedResourceMetadata,
  OAuthServerMetadata,
  OAuthTokenAnswer,
  OAuthTokenRequest,
  type AgentScope,
} from '@bunting/contracts';
import {
  DomainError,
  NotFoundError,
  RateLimitError,
  ValidationError,
  acceptFormBodies,
  escapeHtml,
  principalOf,
  sendError,
  type HttpServer,
} from '@bunting/platform';
import { viaLabel } from '@bunting/mcp';
import type { AdminDeps } from '../app-deps.ts';
import { agentTokenService } from '../agent-tokens/agent-token-service.ts';
import { userReadModel } from '../users/user-read-model.ts';
import { loadRemoteMcp } from './remote-mcp-setting.ts';
import { oauthGrants } from './oauth-grants.ts';
import { acceptableRedirect, verifierMatches } from './pkce.ts';
import { trustedAddresses } from './trusted-addresses.ts';
import { noteWho } from '../access-history/access-hook.ts';

/** How long a token issued to an MCP client lasts, as in Unleash: a day, then the client signs in again. */
const TOKEN_HOURS = 24;
const MCP_PATH = '/api/admin/mcp';
const REGISTRATION_BODY_LIMIT = 8 * 1024;

/** The scopes a request names (space separated); all of them when it names none, as clients that predate scopes ask. */
function requestedScopes(scope: string | undefined): AgentScope[] | null {
  const names = (scope ?? '').split(' ').filter((name) => name !== '');
  if (names.length === 0) return [...AGENT_SCOPES];
  if (!names.every((name): name is AgentScope => (AGENT_SCOPES as readonly string[]).includes(name))) return null;
  return [...new Set(names)];
}

/**
 * The OAuth flow MCP clients use to get a token without a person pasting one: they discover it from the MCP
 * endpoint's 401, register themselves, send the person to /oauth/authorize, which hands over to the console's
 * consent page (signing in first if need be); the person allows it for some scopes, and the client trades the code
 * (with its PKCE verifier) for an agent's token lasting 24 hours, good at the MCP endpoint only.
 */
export function oauthRoutes(
  app: HttpServer,
  {
    db,
    changes,
    redis,
    namespace,
    config,
    log,
  }: Pick<AdminDeps, 'db' | 'changes' | 'redis' | 'namespace' | 'config' | 'log'>,
) {
  const grants = oauthGrants(redis, namespace, config.oauthRegistrationsPerAddress);
  const addresses = trustedAddresses(config);
  const redirectSchemes = config.mcpRedirectSchemes;
  if (!config.baseUrlConfigured) {
    log.info(
      { allowedHosts: ['localhost', '127.0.0.1', '[::1]', ...config.allowedHosts] },
      'OAuth metadata for MCP clients is built from the Host of each request: set BUNTING_URL (or UNLEASH_URL) to the public address; other hosts are refused',
    );
  }
  const resourceOf = (base: string) => `${base}${MCP_PATH}`;
  const requireOn = async () => {
    if (!(await loadRemoteMcp(db)).enabled)
      throw new NotFoundError('The remote MCP server is turned off on this instance.');
  };

  const resourceMetadata = async (request: FastifyRequest) => {
    await requireOn();
    const base = addresses.baseOf(request);
    return {
      resource: resourceOf(base),
      authorization_servers: [base],
      bearer_methods_supported: ['header'],
      resource_name: 'Bunting MCP server',
      scopes_supported: [...AGENT_SCOPES],
    };
  };
  for (const url of [`/.well-known/oauth-protected-resource${MCP_PATH}`, '/.well-known/oauth-protected-resource']) {
    app.get(
      url,
      {
        schema: {
          summary: "Where the MCP endpoint's tokens come from (OAuth protected resource metadata, RFC 9728)",
          response: { 200: OAuthProtectedResourceMetadata },
        },
      },
      resourceMetadata,
    );
  }

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        summary: 'The OAuth endpoints MCP clients sign in through (RFC 8414)',
        response: { 200: OAuthServerMetadata },
      },
    },
    async (request) => {
      await requireOn();
      const base = addresses.baseOf(request);
      return {
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: [...AGENT_SCOPES],
      };
    },
  );

  app.post(
    '/oauth/register',
    {
      bodyLimit: REGISTRATION_BODY_LIMIT,
      schema: {
        summary: 'Register an MCP client (OAuth dynamic client registration, RFC 7591)',
        body: OAuthClientRegistration,
        response: { 201: OAuthClientInformation },
      },
    },
    async (request, reply) => {
      await requireOn();
      addresses.baseOf(request);
      if (!(await grants.mayRegister(request.ip)))
        throw new RateLimitError('Too many client registrations from this address; try again in a few minutes.', 600);
      const refused = request.body.redirect_uris.find((uri) => !acceptableRedirect(uri, redirectSchemes));
      if (refused !== undefined) {
        throw ValidationError.field(
          'redirect_uris',
          `${refused} is not a redirect address Bunting sends codes to: use https, http to a loopback address, or an app's own scheme named for its domain (com.example.app:/callback)`,
        );
      }
      const client = {
        clientId: randomUUID(),
        clientName: (request.body.client_name ?? '').trim() || 'MCP client',
        redirectUris: request.body.redirect_uris,
        issuedAt: Math.floor(Date.now() / 1000),
      };
      await grants.saveClient(client);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({
          client_id: client.clientId,
          client_id_issued_at: client.issuedAt,
          client_name: client.clientName,
          redirect_uris: client.redirectUris,
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code'],
          response_types: ['code'],
        });
    },
  );

  app.get(
    '/oauth/authorize',
    {
      // A person's browser lands here: a query that does not fit is shown on the page too, not as JSON.
      attachValidation: true,
      schema: {
        summary: "Start an MCP client's sign-in: checks the request and hands over to the console's consent page",
        querystring: OAuthAuthorizeQuery,
        // A page for the person; a request refused before the route (a NUL in the URL) has the spec's error shape.
        response: {
          302: NoContent,
          400: {
            description: 'A page saying why the sign-in cannot start',
            content: { 'text/html': { schema: z.string() }, 'application/json': { schema: ErrorBody } },
          },
        },
      },
    },
    async (request, reply) => {
      await requireOn();
      const base = addresses.baseOf(request);
      if (request.validationError)
        return errorPage(reply, `The agent's sign-in request is not valid: ${request.validationError.message}`);
      const query = request.query;
      // Nothing is sent back to the client's address before a signed-in person has seen the client's name: anyone may
      // register any https address, so an error redirected there would make this server an open redirector.
      const client = await grants.client(query.client_id);
      if (!client)
        return errorPage(
          reply,
          'This MCP client is not registered here (or its registration expired): connect it to Bunting again.',
        );
      if (!client.redirectUris.includes(query.redirect_uri))
        return errorPage(reply, `${client.clientName} asked to be sent to an address it did not register.`);
      if (query.response_type !== 'code')
        return errorPage(
          reply,
          `${client.clientName} asked for a "${query.response_type}" answer; Bunting offers only "code".`,
        );
      if (query.code_challenge_method !== 'S256')
        return errorPage(reply, `${client.clientName} did not use PKCE with S256, which Bunting requires.`);
      const scopes = requestedScopes(query.scope);
      if (scopes === null)
        return errorPage(
          reply,
          `${client.clientName} asked for scopes Bunting does not have (${query.scope}); it offers ${AGENT_SCOPES.join(' and ')}.`,
        );
      const resource = resourceOf(base);
      if (query.resource !== undefined && query.resource.replace(/\/+$/, '') !== resource) {
        return errorPage(
          reply,
          `${client.clientName} asked for a token for ${query.resource}; Bunting issues tokens for its MCP server, ${resource}.`,
        );
      }
      const id = randomBytes(24).toString('base64url');
      await grants.savePending(id, {
        clientId: client.clientId,
        clientName: client.clientName,
        redirectUri: query.redirect_uri,
        state: query.state ?? null,
        codeChallenge: query.code_challenge,
        scopes,
        resource,
      });
      return reply.redirect(`/oauth/consent?request=${id}`, 302);
    },
  );

  const RequestParams = z.object({ id: z.string().min(1).max(100) });
  const signedInPerson = (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (principal.kind !== 'user' || principal.userId === null)
      throw new DomainError(
        403,
        'NoAccessError',
        'Only a person signed in to the console can let an MCP client act for them.',
      );
    return { userId: principal.userId, username: principal.name };
  };

  app.get(
    '/api/admin/mcp/oauth/requests/:id',
    {
      schema: {
        summary: "An MCP client's request to act for the signed-in person, as the consent page shows it",
        params: RequestParams,
        response: { 200: OAuthConsentRequest },
      },
    },
    async (request) => {
      signedInPerson(request);
      const pending = await grants.pending(request.params.id);
      if (!pending)
        throw new NotFoundError(
          'This sign-in request has expired or was already answered: start again from the MCP client.',
        );
      return {
        id: request.params.id,
        clientName: pending.clientName,
        redirectHost: hostOf(pending.redirectUri),
        tokenHours: TOKEN_HOURS,
        scopes: pending.scopes,
        resource: pending.resource,
      };
    },
  );

  app.post(
    '/api/admin/mcp/oauth/requests/:id',
    {
      schema: {
        summary: "Allow (for some scopes) or deny an MCP client's request to act for the signed-in person",
        params: RequestParams,
        body: OAuthConsentDecision,
        response: { 200: OAuthConsentAnswer },
      },
    },
    async (request) => {
      const person = signedInPerson(request);
      const granted = request.body.scopes;
      const pending = await grants.takePending(request.params.id);
      if (!pending)
        throw new NotFoundError(
          'This sign-in request has expired or was already answered: start again from the MCP client.',
        );
      if (!request.body.allow)
        return {
          redirectTo: withParams(pending.redirectUri, {
            error: 'access_denied',
            error_description: 'The person denied the request',
            state: pending.state,
          }),
        };
      const scopes = granted === undefined ? pending.scopes : pending.scopes.filter((scope) => granted.includes(scope));
      if (scopes.length === 0)
        throw ValidationError.field('scopes', `must name some of those asked for: ${pending.scopes.join(', ')}`);
      const code = randomBytes(32).toString('base64url');
      await grants.saveCode(code, {
        clientId: pending.clientId,
        clientName: pending.clientName,
        redirectUri: pending.redirectUri,
        codeChallenge: pending.codeChallenge,
        scopes,
        resource: pending.resource,
        ...person,
      });
      return { redirectTo: withParams(pending.redirectUri, { code, state: pending.state }) };
    },
  );

  // The token endpoint takes the form encoding OAuth prescribes, in its own scope so no other route does.
  app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.post(
      '/oauth/token',
      {
        schema: {
          summary:
            "Trade an MCP client's authorization code and PKCE verifier for a 24-hour agent token for the MCP endpoint",
          body: z.unknown(),
          response: { 200: OAuthTokenAnswer, 400: OAuthError },
        },
        config: { access: { method: 'oauth', action: 'granted' } },
        // A body that is not even a form (bad JSON, a list) is RFC 6749's invalid_request too; a dependency that is
        // away keeps the spec's 503.
        errorHandler: (error, request, reply) => {
          const status = (error as { statusCode?: number }).statusCode ?? 500;
          if (status >= 400 && status < 500) {
            void oauthRefusal(
              request,
              reply,
              'invalid_request',
              "the body must be a form (application/x-www-form-urlencoded) with the token request's fields",
            );
          } else {
            void sendError(error, request, reply);
          }
        },
      },
      async (request, reply) => {
        await requireOn();
        const refuse = (error: string, description: string) => {
          noteWho(request, { detail: `${error}: ${description}` });
          return oauthRefusal(request, reply, error, description);
        };
        const parsed = OAuthTokenRequest.safeParse(request.body);
        if (!parsed.success)
          return refuse(
            'invalid_request',
            parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
          );
        const input = parsed.data;
        if (input.grant_type !== 'authorization_code')
          return refuse('unsupported_grant_type', 'only authorization_code is offered');
        const issued = await grants.takeCode(input.code);
        if (!issued) return refuse('invalid_grant', 'the code is unknown, expired or already used');
        if (issued.clientId !== input.client_id || issued.redirectUri !== input.redirect_uri)
          return refuse('invalid_grant', 'the code was issued to another client or redirect address');
        if (!verifierMatches(input.code_verifier, issued.codeChallenge))
          return refuse('invalid_grant', 'the code_verifier does not match the code_challenge');
        if (input.resource !== undefined && input.resource.replace(/\/+$/, '') !== issued.resource)
          return refuse('invalid_target', `tokens are issued for ${issued.resource} only`);
        // The person may have been deactivated (or deleted) since they consented.
        noteWho(request, { userId: issued.userId, name: issued.username, detail: `agent ${issued.clientName}` });
        const user = await userReadModel.find(db, issued.userId);
        if (!user || !user.active) return refuse('invalid_grant', 'the person who allowed this can no longer sign in');
        const expiresAt = new Date(Date.now() + TOKEN_HOURS * 3_600_000).toISOString();
        const actor = {
          createdBy: issued.username,
          createdByUserId: issued.userId,
          createdVia: viaLabel({ name: issued.clientName }),
        };
        const { secret } = await changes.run({ system: actor }, (change) =>
          agentTokenService.issue(change, {
            userId: issued.userId,
            clientId: issued.clientId,
            clientName: issued.clientName,
            scopes: issued.scopes,
            resource: issued.resource,
            expiresAt,
          }),
        );
        await grants.keepClient(issued.clientId);
        return reply.header('cache-control', 'no-store').send({
          access_token: secret,
          token_type: 'Bearer',
          expires_in: TOKEN_HOURS * 3600,
          scope: issued.scopes.join(' '),
        });
      },
    );
  });
}

/** RFC 6749's error members, which OAuth clients read, beside the spec's (id, name, message). */
function oauthRefusal(request: FastifyRequest, reply: FastifyReply, error: string, description: string) {
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .send({
      id: String(request.id),
      name: 'ValidationError',
      message: `${error}: ${description}`,
      error,
      error_description: description,
    });
}

/** An authorization that cannot start is a page the person reads, not a redirect to an address nobody vouched for. */
function errorPage(reply: FastifyReply, message: string) {
  return reply
    .code(400)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cannot connect the agent</title></head><body style="font-family: sans-serif; max-width: 40rem; margin: 4rem auto">` +
        `<h1>This agent cannot be connected</h1><p>${escapeHtml(message)}</p><p>Nothing was shared with it. Start again from the agent, or ask its maker.</p></body></html>`,
    );
}

/** The 401 of the MCP endpoint points clients at the metadata above (RFC 9728's WWW-Authenticate parameter). */
export function challengeHeader(base: string) {
  return `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource${MCP_PATH}", scope="${AGENT_SCOPES.join(' ')}"`;
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
