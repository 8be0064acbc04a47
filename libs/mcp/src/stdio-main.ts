// npx @bunting/mcp: Bunting's MCP server over stdio, for clients that launch local servers. It forwards every tool
// call to a Bunting (or any of its replicas) with a personal access token or service-account token.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { toolClient } from './bunting-api.ts';
import { createBuntingMcpServer, viaLabel } from './server.ts';

const url = process.env.BUNTING_URL ?? process.env.UNLEASH_URL;
const token = process.env.BUNTING_TOKEN ?? process.env.UNLEASH_PAT;
if (!url || !token) {
  process.stderr.write(
    'bunting-mcp: set BUNTING_URL (e.g. http://localhost:4242) and BUNTING_TOKEN (a personal access token).\n',
  );
  process.exit(2);
}

let server: ReturnType<typeof createBuntingMcpServer> | undefined;
// The client's name is known once it has initialised; every later call carries it for the event log.
server = createBuntingMcpServer(
  toolClient({ baseUrl: url, token, via: () => viaLabel(server?.server.getClientVersion()) }),
);
await server.connect(new StdioServerTransport());
