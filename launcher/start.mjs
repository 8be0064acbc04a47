// The image's entry (deploy/Dockerfile): the SDK edge (the standalone edge or frontend-api) from its build when
// there is one (npm run build:edge), any other target from the TypeScript sources. Plain JavaScript, so that starting
// the built edge loads no type stripping; an image without the build still starts every target from the sources.
import { existsSync } from 'node:fs';

const SDK_EDGES = ['edge', 'frontend-api'];
const target = /--target[= ](\S+)/.exec(process.argv.slice(2).join(' '))?.[1] ?? process.env.BUNTING_TARGET ?? 'all';
const built = new URL('./dist/edge.mjs', import.meta.url);
await import(
  SDK_EDGES.includes(target) && existsSync(built) ? built.href : new URL('./src/main.ts', import.meta.url).href
);
