// npm run build:edge: the SDK edge (the standalone edge and the cluster's frontend-api) as one JavaScript module graph
// (launcher/dist/edge.mjs and its chunks). Run from source, Node strips the types of every file it loads and the edge
// loads every module of the packages it imports from; the build does neither: about 50 MiB less resident memory with
// no flags (bench/README.md, "The lean edge"). Packages from npm stay outside the bundle, loaded from node_modules.
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = fileURLToPath(new URL('../dist', import.meta.url));

/** Bundled: the workspace's own packages and relative imports. Everything else is a package from node_modules. */
const bundled = (id: string) => id.startsWith('@bunting/') || id.startsWith('.') || id.startsWith('/');

const started = performance.now();
await rm(out, { recursive: true, force: true });
await build({
  cwd: root,
  input: { edge: fileURLToPath(new URL('../src/edge-main.ts', import.meta.url)) },
  platform: 'node',
  external: (id) => !bundled(id),
  treeshake: true,
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
});
console.log(`built ${out}/edge.mjs in ${Math.round(performance.now() - started)} ms`);
