import { ensureConsoleBuilt } from '../../../console/scripts/ensure-built.ts';

/** vitest global setup: the browser tests load the console admin-api serves, so build it first if its sources changed. */
export default async function setup() {
  await ensureConsoleBuilt();
}
