import { z } from 'zod';

/**
 * What a person lets an MCP client (a coding agent) do through OAuth: read flags through the MCP server, or read
 * and change them. A token carries the scopes consented to and works only at the MCP endpoint it was issued for.
 */
export const AGENT_SCOPES = ['mcp:read', 'mcp:write'] as const;
export const AgentScope = z.enum(AGENT_SCOPES);
export type AgentScope = z.infer<typeof AgentScope>;

/** An agent connected through OAuth, as its person (and admins) see it; the token itself is never shown again. */
export const AgentToken = z.object({
  id: z.number().int().min(1),
  userId: z.number().int(),
  /** Who connected it: their username, else e-mail, else name. */
  userName: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  scopes: z.array(AgentScope),
  /** The MCP endpoint the token is for (RFC 8707's resource). */
  resource: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  seenAt: z.string().nullable(),
});
export type AgentToken = z.infer<typeof AgentToken>;
export const AgentTokenList = z.object({ agents: z.array(AgentToken) });
