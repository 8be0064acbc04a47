import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { toolClient } from './bunting-api.ts';
import { createBuntingMcpServer } from './server.ts';

type Property = { type?: string | string[]; description?: string; enum?: unknown[]; items?: Property };

/**
 * The tool list as Markdown, read from the server itself (the tools' own names, descriptions, annotations and input
 * schemas), so the documentation cannot drift from the code.
 */
export async function toolDocs(): Promise<string> {
  // Listing tools calls nothing: a client whose every call would be refused is enough.
  const nowhere = toolClient({
    baseUrl: 'http://tool-docs.invalid',
    via: () => null,
    fetch: async () => new Response(null, { status: 503 }),
  });
  const server = createBuntingMcpServer(nowhere);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'tool-docs', version: '1' });
  await client.connect(clientSide);
  const [{ tools }, { prompts }, { resourceTemplates }] = await Promise.all([
    client.listTools(),
    client.listPrompts(),
    client.listResourceTemplates(),
  ]);
  await client.close();

  const lines = [
    '# Bunting MCP tools',
    '',
    "<!-- Written by `npm run generate:mcp-docs` from the tools' own definitions; a test checks it is current. -->",
    '',
    "Every tool acts as the caller through Bunting's API, with its permissions; changing tools in an environment that",
    'takes changes through change requests answer `"outcome": "proposed"` and put the change in the caller\'s draft.',
    '',
  ];
  for (const tool of tools) {
    const kind = tool.annotations?.readOnlyHint
      ? 'read-only'
      : tool.annotations?.destructiveHint
        ? 'changes state, removes'
        : 'changes state';
    lines.push(`## \`${tool.name}\` (${kind})`, '', tool.description ?? '', '');
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, Property>;
    const required = new Set(tool.inputSchema.required ?? []);
    if (Object.keys(properties).length > 0) {
      lines.push('| Argument | Type | Required | About |', '| --- | --- | --- | --- |');
      for (const [name, property] of Object.entries(properties)) {
        lines.push(
          `| \`${name}\` | ${typeOf(property)} | ${required.has(name) ? 'yes' : 'no'} | ${(property.description ?? '').replaceAll('|', '\\|')} |`,
        );
      }
      lines.push('');
    }
  }
  lines.push('## Prompts', '');
  for (const prompt of prompts) lines.push(`- \`${prompt.name}\`: ${prompt.description ?? ''}`);
  lines.push('', '## Resources', '');
  for (const template of resourceTemplates) lines.push(`- \`${template.uriTemplate}\`: ${template.description ?? ''}`);
  lines.push('');
  return lines.join('\n');
}

function typeOf(property: Property): string {
  if (property.enum) return property.enum.map((value) => `\`${String(value)}\``).join(' \\| ');
  const type = Array.isArray(property.type) ? property.type.join(' \\| ') : (property.type ?? 'object');
  return type === 'array' && property.items ? `array of ${typeOf(property.items)}` : type;
}
