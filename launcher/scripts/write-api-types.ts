// npm run generate:api-types: starts the whole stack on a database and NATS namespace of its own, reads the API
// document every service's routes make up, and writes the typed client's types (libs/api-client).
import { writeFile } from 'node:fs/promises';
import { API_TYPES_FILE, apiTypesOf } from '@bunting/api-client/api-types';
import { isolate } from '@bunting/testing';
import { startStack } from '../src/stack.ts';

const isolation = await isolate();
try {
  const stack = await startStack({ target: 'all', env: isolation.env });
  try {
    // The 3.1 document: it keeps what 3.0 cannot say (tuples), which the console's types rely on.
    const response = await fetch(`${stack.url}/docs/openapi-3.1.json`);
    if (!response.ok) throw new Error(`/docs/openapi-3.1.json answered ${response.status}`);
    await writeFile(API_TYPES_FILE, await apiTypesOf(await response.json()));
    console.log(`wrote ${API_TYPES_FILE}`);
  } finally {
    await stack.close();
  }
} finally {
  await isolation.cleanup();
}
