// npm run build -w @bunting/cli: the CLI as one JavaScript file (dist/bunting.mjs) that runs on Node 20 and later
// from npm, where Node does not strip types; yaml and zod stay packages it depends on.
import { chmod, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { projectSchema } from '../src/schema.ts';

const out = fileURLToPath(new URL('../dist', import.meta.url));
await rm(out, { recursive: true, force: true });
await build({
  input: { bunting: fileURLToPath(new URL('../src/bin.ts', import.meta.url)) },
  platform: 'node',
  external: (id) => id === 'yaml' || id === 'zod' || id.startsWith('node:'),
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].mjs' },
});
await chmod(`${out}/bunting.mjs`, 0o755);
await writeFile(
  fileURLToPath(new URL('../schema/bunting-project.schema.json', import.meta.url)),
  `${JSON.stringify(projectSchema(), null, 2)}\n`,
);
console.log(`built ${out}/bunting.mjs`);
