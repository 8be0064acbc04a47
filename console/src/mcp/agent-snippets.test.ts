import { describe, expect, it } from 'vitest';
import { agentSnippets } from './agent-snippets.ts';

describe('agent snippets', () => {
  it('point every client at the remote endpoint or the local package, with the token', () => {
    const snippets = agentSnippets('https://flags.example', 'user:abc');
    expect(snippets[0]!.text).toBe(
      'claude mcp add --transport http bunting https://flags.example/api/admin/mcp --header "Authorization: Bearer user:abc"',
    );
    expect(JSON.parse(snippets[1]!.text).mcpServers.bunting).toEqual({
      type: 'http',
      url: 'https://flags.example/api/admin/mcp',
      headers: { Authorization: 'Bearer user:abc' },
    });
    expect(JSON.parse(snippets[2]!.text).mcpServers.bunting.env).toEqual({
      BUNTING_URL: 'https://flags.example',
      BUNTING_TOKEN: 'user:abc',
    });
  });
});
