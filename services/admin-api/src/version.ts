import { readFileSync } from 'node:fs';

/** Bunting's own version (admin-api's package), as ui-config and audit records name it. */
export const BUNTING_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
