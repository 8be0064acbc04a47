// The entry of the built SDK edge (npm run build:edge): the launcher, with the standalone edge or the cluster's
// frontend-api as its only target (the same SDK routes over another source). Other services run from the sources.
const SDK_EDGES = ['edge', 'frontend-api'];
const fromArgs = /--target[= ](\S+)/.exec(process.argv.slice(2).join(' '))?.[1];
const named = fromArgs ?? process.env.BUNTING_TARGET ?? 'edge';
if (!SDK_EDGES.includes(named))
  throw new Error(
    `launcher/dist/edge.mjs runs the SDK edge only (${SDK_EDGES.join(' or ')}), not "${named}"; use launcher/src/main.ts`,
  );
process.env.BUNTING_TARGET = named;
await import('./main.ts');
