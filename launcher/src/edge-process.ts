// The SDK edge is deployed many times over, so what its process keeps is what a team pays for (bench/README.md):
// - V8 sizes the young generation from the machine's memory: on a 24 GiB host each semi-space may grow to 64 MiB,
//   and once parsing three 10,000-flag environments has grown it, it stays (128 MiB of new space for 5 MiB of live
//   objects). 8 MiB semi-spaces kept RSS after loading them at 160-175 MiB instead of 240-255.
// - glibc raises its mmap threshold to the largest block freed, so after a load run the answers of 0.7-1.5 MB at
//   10,000 flags come from, and stay in, its arenas. A fixed threshold gives them back when freed; two arenas
//   instead of eight per core keep fewer half-empty ones.

const SEMI_SPACE_FLAG = '--max-semi-space-size';
/** The semi-space the SDK edge runs with unless told otherwise (EDGE_SEMI_SPACE_MIB; 0 leaves Node's own). */
export const EDGE_SEMI_SPACE_MIB = 8;
const MALLOC_DEFAULTS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '262144' };

export type Restart = { args: string[]; env: Record<string, string | undefined> };

/**
 * How to start this process again, tuned as above, or undefined when it already is (by hand, in NODE_OPTIONS, or
 * by the start before) or `EDGE_SEMI_SPACE_MIB=0` leaves it to Node. Allocator settings someone set are kept.
 */
export function tunedEdgeProcess(
  execArgv: readonly string[],
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Restart | undefined {
  if (execArgv.some((arg) => arg.startsWith(SEMI_SPACE_FLAG)) || (env.NODE_OPTIONS ?? '').includes(SEMI_SPACE_FLAG))
    return undefined;
  const asked = env.EDGE_SEMI_SPACE_MIB;
  const mib = asked === undefined || asked === '' ? EDGE_SEMI_SPACE_MIB : Number(asked);
  if (!Number.isInteger(mib) || mib < 0 || mib > 1024)
    throw new Error(`EDGE_SEMI_SPACE_MIB must be a whole number of MiB from 0 to 1024, not "${asked}"`);
  if (mib === 0) return undefined;
  return {
    args: [argv[0]!, `${SEMI_SPACE_FLAG}=${mib}`, ...execArgv, ...argv.slice(1)],
    env: { ...MALLOC_DEFAULTS, ...env },
  };
}
