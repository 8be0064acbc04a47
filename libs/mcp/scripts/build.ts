// npm run build -w @bunting/mcp (and npm pack, through prepack): the stdio server as one JavaScript file
// (dist/bunting-mcp.mjs) that runs from npm on Node 20 and later. Bunting's own packages are bundled; the MCP SDK,
// zod and openapi-fetch stay the dependencies npm installs.
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const out = fileURLToPath(new URL('../dist', import.meta.url));
await rm(out, { recursive: true, force: true });
await build({
  input: { 'bunting-mcp': fileURLToPath(new URL('../src/stdio-main.ts', import.meta.url)) },
  platform: 'node',
  external: (id) => !(id.startsWith('@bunting/') || id.startsWith('.') || id.startsWith('/')),
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].mjs' },
});
console.log(`built ${out}/bunting-mcp.mjs`);
