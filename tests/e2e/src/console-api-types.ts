import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/** Where the console keeps the types of the API, generated from /docs/openapi.json. */
export const CONSOLE_API_TYPES = fileURLToPath(
  new URL('../../../console/src/api/bunting-api.gen.d.ts', import.meta.url),
);

/** The document's paths and schemas in name order, so the order routes are registered in changes nothing. */
function sorted(document: { paths?: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } }) {
  const byName = <Value>(record: Record<string, Value> | undefined) =>
    Object.fromEntries(Object.entries(record ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  return {
    ...document,
    paths: byName(document.paths),
    components: { ...document.components, schemas: byName(document.components?.schemas) },
  };
}

/** The console's API types for a document: what `npm run generate:api-types` writes, and the document test compares. */
export async function consoleApiTypes(document: unknown): Promise<string> {
  const header =
    '// Generated from /docs/openapi.json by `npm run generate:api-types`; do not edit. The OpenAPI document test fails when it is stale.\n';
  return header + astToString(await openapiTS(sorted(structuredClone(document) as never) as never));
}

// Run directly: start a stack, read its document, write the types.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startTestStack } = await import('@bunting/test-stack');
  const stack = await startTestStack();
  try {
    await writeFile(CONSOLE_API_TYPES, await consoleApiTypes((await stack.anonymous.get('/docs/openapi.json')).body));
    console.log(`wrote ${CONSOLE_API_TYPES}`);
  } finally {
    await stack.dispose();
  }
}
