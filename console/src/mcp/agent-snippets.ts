/** How common MCP clients are told about Bunting: the remote server with a token, or the local package. */
export type AgentSnippet = { client: string; format: 'shell' | 'json'; text: string };

export function agentSnippets(origin: string, token: string): AgentSnippet[] {
  const url = `${origin}/api/admin/mcp`;
  const remote = { type: 'http', url, headers: { Authorization: `Bearer ${token}` } };
  return [
    {
      client: 'Claude Code',
      format: 'shell',
      text: `claude mcp add --transport http bunting ${url} --header "Authorization: Bearer ${token}"`,
    },
    {
      client: 'Cursor, VS Code, Windsurf (mcp.json)',
      format: 'json',
      text: JSON.stringify({ mcpServers: { bunting: remote } }, null, 2),
    },
    {
      client: 'Local server over stdio (any client)',
      format: 'json',
      text: JSON.stringify(
        {
          mcpServers: {
            bunting: { command: 'npx', args: ['@bunting/mcp'], env: { BUNTING_URL: origin, BUNTING_TOKEN: token } },
          },
        },
        null,
        2,
      ),
    },
  ];
}
