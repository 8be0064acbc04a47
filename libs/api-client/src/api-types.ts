import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/** Where the generated types live: beside the client that uses them. */
export const API_TYPES_FILE = fileURLToPath(new URL('./bunting-api.generated.d.ts', import.meta.url));

const HEADER =
  '// Generated from /docs/openapi.json by `npm run generate:api-types`; do not edit. The OpenAPI document test fails when it is stale.\n';

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

/** The API's types for a document: what `npm run generate:api-types` writes, and the document test compares. */
export async function apiTypesOf(document: unknown): Promise<string> {
  return HEADER + astToString(await openapiTS(sorted(structuredClone(document) as never) as never));
}
