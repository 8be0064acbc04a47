import { z } from 'zod';

/**
 * Who is calling, as admin-api tells other services after checking a credential.
 * Root and project permissions are resolved by admin-api; other services only read them.
 */
export const Principal = z.object({
  kind: z.enum(['api-token', 'user', 'pat', 'service-account', 'agent']),
  /** Stable key for caches and favorites: "token:3", "user:1". */
  key: z.string(),
  /** The name events record as createdBy. */
  name: z.string(),
  userId: z.number().nullable(),
  /** API tokens only. */
  tokenType: z.enum(['admin', 'client', 'frontend']).nullable(),
  /** API tokens only: the environment the token is bound to ("*" for admin tokens). */
  environment: z.string().nullable(),
  /** API tokens only: the projects it can see; ["*"] for all. */
  projects: z.array(z.string()),
  /** Root permissions (e.g. ADMIN) the principal holds instance-wide. */
  permissions: z.array(z.string()),
  /** Project-scoped permissions: project id to permission names. */
  projectPermissions: z.record(z.string(), z.array(z.string())),
  /** Environment-scoped permissions: "project:environment" to permission names. */
  environmentPermissions: z.record(z.string(), z.array(z.string())),
  rootRole: z.number().nullable(),
  /** Agents (OAuth tokens of MCP clients): the scopes the person consented to. */
  scopes: z.array(z.string()).optional(),
  /**
   * Agents: the one route their token is for (the MCP endpoint, RFC 8707's resource); any other refuses it. The MCP
   * server's own calls on the agent's behalf carry a credential without one.
   */
  audience: z.string().optional(),
  /** The agent's MCP client the request came through, which events record as createdVia; never a permission. */
  via: z.string().max(200).nullable().optional(),
});
export type Principal = z.infer<typeof Principal>;

export const VerifyCredentialRequest = z.object({
  /** The Authorization header value, or a session id taken from the session cookie. */
  authorization: z.string().nullable(),
  session: z.string().nullable(),
  /** Where the request came from, for the sign-in history (a revoked token used again). */
  client: z.object({ address: z.string().max(100), userAgent: z.string().max(500).nullable() }).optional(),
});
export type VerifyCredentialRequest = z.infer<typeof VerifyCredentialRequest>;
