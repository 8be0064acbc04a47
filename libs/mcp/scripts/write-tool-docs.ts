// npm run generate:mcp-docs: writes libs/mcp/TOOLS.md from the tools' own definitions.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { toolDocs } from '../src/tool-docs.ts';

const target = fileURLToPath(new URL('../TOOLS.md', import.meta.url));
await writeFile(target, await toolDocs());
process.stdout.write(`wrote ${target}\n`);
