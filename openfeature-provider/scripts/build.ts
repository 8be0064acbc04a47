// npm run build -w @bunting/openfeature-provider: the provider as one JavaScript module (dist/index.mjs) for npm,
// where Node does not strip types; the OpenFeature packages stay the application's (peer dependencies).
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const out = fileURLToPath(new URL('../dist', import.meta.url));
await rm(out, { recursive: true, force: true });
await build({
  input: { index: fileURLToPath(new URL('../src/index.ts', import.meta.url)) },
  platform: 'node',
  external: (id) => id.startsWith('@openfeature/') || id.startsWith('node:'),
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].mjs' },
});
console.log(`built ${out}/index.mjs`);
