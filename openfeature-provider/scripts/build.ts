// npm run build -w @bunting/openfeature-provider: the providers as JavaScript modules (dist/index.mjs, dist/web.mjs) for npm,
// where Node does not strip types; the OpenFeature packages stay the application's (peer dependencies).
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const out = fileURLToPath(new URL('../dist', import.meta.url));
await rm(out, { recursive: true, force: true });
await build({
  input: {
    index: fileURLToPath(new URL('../src/index.ts', import.meta.url)),
    web: fileURLToPath(new URL('../src/web.ts', import.meta.url)),
  },
  // Both run where fetch is global (Node 18+, browsers); nothing of Node's is used.
  platform: 'neutral',
  external: (id) => id.startsWith('@openfeature/') || id.startsWith('node:'),
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].mjs' },
});
console.log(`built ${out}/index.mjs and ${out}/web.mjs`);
