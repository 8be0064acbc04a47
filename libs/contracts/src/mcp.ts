import { z } from 'zod';
import { AgentScope } from './agent-tokens.ts';
import { ErrorBody } from './errors.ts';

/** GET|PUT /api/admin/remote-mcp/settings: whether the remote MCP server at /api/admin/mcp answers (off: 404). */
export const RemoteMcpSettings = z.object({ enabled: z.boolean() });
export type RemoteMcpSettings = z.infer<typeof RemoteMcpSettings>;

// The OAuth 2.1 flow MCP clients sign in with (authorization code with PKCE, dynamic client registration), whose
// wire shapes are the RFCs' (snake_case, and RFC 6749's error body on the token endpoint).

const RedirectUri = z.string().min(1).max(2_000);

/**
 * POST /oauth/register (RFC 7591): a public client, one that proves itself with PKCE rather than a secret. Small:
 * anyone may register, so what a registration may hold is bounded.
 */
export const OAuthClientRegistration = z
  .object({
    redirect_uris: z.array(z.string().min(1).max(500)).min(1).max(5),
    client_name: z.string().max(100).optional(),
    token_endpoint_auth_method: z.enum(['none']).optional(),
    grant_types: z.array(z.string().max(100)).max(10).optional(),
    response_types: z.array(z.string().max(100)).max(10).optional(),
    scope: z.string().max(1_000).optional(),
  })
  .loose();

export const OAuthClientInformation = z.object({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.literal('none'),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
});

/** GET /oauth/authorize */
export const OAuthAuthorizeQuery = z.object({
  response_type: z.string().max(100),
  client_id: z.string().min(1).max(200),
  redirect_uri: RedirectUri,
  code_challenge: z.string().min(43).max(128),
  code_challenge_method: z.string().max(20).optional(),
  state: z.string().max(2_000).optional(),
  scope: z.string().max(1_000).optional(),
  resource: z.string().max(2_000).optional(),
});

/** POST /oauth/token (form-encoded) */
export const OAuthTokenRequest = z.object({
  grant_type: z.string().max(100),
  code: z.string().min(1).max(200),
  redirect_uri: RedirectUri,
  client_id: z.string().min(1).max(200),
  code_verifier: z.string().min(1).max(200),
  resource: z.string().max(2_000).optional(),
});

export const OAuthTokenAnswer = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  /** The scopes granted, space separated: those the person consented to. */
  scope: z.string(),
});

/**
 * The token endpoint's refusal: RFC 6749's `error` and `error_description`, which OAuth clients read, in the spec's
 * error shape (id, name, message) that every other refusal has; a refusal made before the route (a malformed query)
 * has the spec's members only.
 */
export const OAuthError = ErrorBody.pick({ id: true, name: true, message: true, details: true }).extend({
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** GET /api/admin/mcp/oauth/requests/{id}: what the console's consent page shows. */
export const OAuthConsentRequest = z.object({
  id: z.string(),
  clientName: z.string(),
  redirectHost: z.string(),
  tokenHours: z.number(),
  /** What the client asked for; the person may grant less. */
  scopes: z.array(AgentScope),
  /** The MCP endpoint the token will be for. */
  resource: z.string(),
});

/** POST /api/admin/mcp/oauth/requests/{id}: allowed, with the scopes granted (some of those asked; all when left out). */
export const OAuthConsentDecision = z.object({
  allow: z.boolean(),
  scopes: z.array(AgentScope).min(1).max(2).optional(),
});
export const OAuthConsentAnswer = z.object({ redirectTo: z.string() });

/** The two discovery documents (RFC 9728 and RFC 8414). */
export const OAuthProtectedResourceMetadata = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
  scopes_supported: z.array(z.string()),
});
export const OAuthServerMetadata = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.string(),
  response_types_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
});
