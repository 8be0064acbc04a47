// The entry of the built standalone edge (npm run build:edge): the launcher, with the edge as its only target.
const fromArgs = /--target[= ](\S+)/.exec(process.argv.slice(2).join(' '))?.[1];
const named = fromArgs ?? process.env.BUNTING_TARGET;
if (named !== undefined && named !== 'edge')
  throw new Error(`launcher/dist/edge.mjs runs the standalone edge only, not "${named}"; use launcher/src/main.ts`);
process.env.BUNTING_TARGET = 'edge';
await import('./main.ts');
