import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { BuntingClient } from '@bunting/api-client';
import { registerChangeRequestTools } from './tools/change-request-tools.ts';
import { registerCleanupTools } from './tools/cleanup-tools.ts';
import { registerEvaluateTools } from './tools/evaluate-tools.ts';
import { registerFlagTools } from './tools/flag-tools.ts';
import { registerGuidanceTools } from './tools/guidance-tools.ts';
import { registerReleaseTools } from './tools/release-tools.ts';
import { registerPrompts, registerResources } from './resources.ts';

export const SERVER_INFO = { name: 'bunting', version: '0.1.0' } as const;

const INSTRUCTIONS =
  "Bunting is an Unleash-compatible feature-flag service. Every tool acts as the signed-in user through Bunting's API, with " +
  'its permissions; changes are recorded in the event log naming this client. In environments that require change requests, changing tools ' +
  'answer "proposed" and put the change in a draft: submit it, and someone else approves it.';

/** One MCP server with every tool, resource and prompt, acting through the given client of the API. */
export function createBuntingMcpServer(api: BuntingClient): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    capabilities: { tools: {}, resources: {}, prompts: {} },
  });
  registerFlagTools(server, api);
  registerEvaluateTools(server, api);
  registerReleaseTools(server, api);
  registerChangeRequestTools(server, api);
  registerCleanupTools(server, api);
  registerGuidanceTools(server);
  registerResources(server, api);
  registerPrompts(server);
  return server;
}

/** How events name an MCP client: "MCP: <name> <version>". */
export function viaLabel(client: { name?: string; version?: string } | undefined | null): string {
  const name = client?.name?.trim() || 'unknown client';
  return `MCP: ${name}${client?.version ? ` ${client.version}` : ''}`.slice(0, 200);
}
