// The entry of the built SDK edge (npm run build:edge): the launcher, with the standalone edge or the cluster's
// frontend-api as its only target (the same SDK routes over another source). Other services run from the sources.
import { tunedEdgeProcess } from './edge-process.ts';

const SDK_EDGES = ['edge', 'frontend-api'];
const fromArgs = /--target[= ](\S+)/.exec(process.argv.slice(2).join(' '))?.[1];
const named = fromArgs ?? process.env.BUNTING_TARGET ?? 'edge';
if (!SDK_EDGES.includes(named))
  throw new Error(
    `launcher/dist/edge.mjs runs the SDK edge only (${SDK_EDGES.join(' or ')}), not "${named}"; use launcher/src/main.ts`,
  );
// Replaced in place (same process id, nothing opened yet) where Node can; elsewhere the edge runs with Node's default.
const again = tunedEdgeProcess(process.execArgv, process.argv, process.env);
if (again && typeof process.execve === 'function') process.execve(process.execPath, again.args, again.env);
process.env.BUNTING_TARGET = named;
await import('./main.ts');
