// npm run build:edge: the SDK edge (the standalone edge and the cluster's frontend-api) as one JavaScript module graph
// (launcher/dist/edge.mjs and its chunks). Run from source, Node strips the types of every file it loads and the edge
// loads every module of the packages it imports from; the build does neither: about 50 MiB less resident memory with
// no flags (bench/README.md, "The lean edge"). Packages only the cluster's other services use stay outside the
// bundle, loaded from node_modules when a process mounts them.
import { rm } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = fileURLToPath(new URL('../dist', import.meta.url));

/**
 * Packages every SDK edge loads at start, bundled with whatever they import: one file to read and compile instead of
 * hundreds to find in node_modules. Measured on the standalone edge, 10,000 flags x 3 persisted: start to ready
 * 424-514 ms against 551-570 (alternating starts), and 8 MiB less RSS with no flags (bench/README.md, 2026-12-05).
 */
const STARTUP_PACKAGES = [
  'fastify',
  'zod',
  'pino',
  'prom-client',
  'fastify-type-provider-zod',
  'fast-json-stringify',
  'semver',
  're2js',
  'ip-address',
  '@opentelemetry/api',
  '@nats-io/jetstream',
  '@nats-io/transport-node',
];
const packageOf = (id: string) => (id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0]!);
/** Bundled: the workspace's own packages, relative imports, the start-up packages and whatever they import. */
const bundled = (id: string, importer: string | undefined) =>
  id.startsWith('@bunting/') ||
  id.startsWith('.') ||
  id.startsWith('/') ||
  (!isBuiltin(id) && (STARTUP_PACKAGES.includes(packageOf(id)) || Boolean(importer?.includes('/node_modules/'))));

/**
 * The cluster's other services: the built edge never runs them (edge-main.ts refuses their targets), so they are left
 * out of its module graph. Then nothing of theirs keeps a schema alive, and the contracts the edge does not use are
 * dropped (schemas are built by calls the tree-shaker is told are pure).
 */
const NOT_IN_EDGE = [
  '@bunting/admin-api/app',
  '@bunting/event-log/app',
  '@bunting/signals/app',
  '@bunting/insights/app',
];
const LEFT_OUT = '\0not-in-the-edge:';

const started = performance.now();
await rm(out, { recursive: true, force: true });
await build({
  cwd: root,
  input: { edge: fileURLToPath(new URL('../src/edge-main.ts', import.meta.url)) },
  platform: 'node',
  external: (id, importer) => !bundled(id, importer),
  // Calls on zod's `z` and contracts' `view` only build schemas: one whose result nothing uses is dropped. With the
  // other services out of the graph, that leaves out the contracts the edge never reads: 82-83 MiB with no flags
  // against 90-91 (alternating starts, 2026-12-05). A call on `z` made for its effect must not be written on `z`.
  treeshake: { manualPureFunctions: ['z', 'view'] },
  plugins: [
    {
      name: 'edge-targets-only',
      resolveId: (id) => (NOT_IN_EDGE.includes(id) ? LEFT_OUT + id : undefined),
      load: (id) =>
        id.startsWith(LEFT_OUT)
          ? `throw new Error(${JSON.stringify(`${id.slice(LEFT_OUT.length)} is not in the built SDK edge`)});`
          : undefined,
    },
  ],
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
});
console.log(`built ${out}/edge.mjs in ${Math.round(performance.now() - started)} ms`);
