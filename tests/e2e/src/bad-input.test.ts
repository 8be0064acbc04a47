import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

/**
 * Every operation of the stack's own API document, sent bad input: wrong JSON shapes, a body that is not JSON,
 * nonsense query values. None may answer 5xx, and every error must come in the spec's shape. Path parameters name
 * things that do not exist, so nothing is changed. The operations are read from /docs/openapi.json, so a route
 * added tomorrow is tried too.
 */
type Operation = {
  parameters?: { in: string; name: string; schema?: { type?: string } }[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
};
let OPERATIONS: string[] = [];

/** The document's operations as `METHOD /path`, each path parameter naming nothing that exists. */
function operationsOf(document: { paths: Record<string, Record<string, Operation>> }): string[] {
  const listed: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      // A stream answers for as long as it is read; its refusals are tried by the streaming tests.
      if (Object.values(operation.responses ?? {}).some((answer) => 'text/event-stream' in (answer.content ?? {})))
        continue;
      const numeric = new Set(
        (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path' && parameter.schema?.type === 'integer')
          .map((parameter) => parameter.name),
      );
      listed.push(
        `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, (_whole, name: string) => (numeric.has(name) ? '987654' : 'x1'))}`,
      );
    }
  }
  return listed;
}

const BAD_BODIES: (string | undefined)[] = [
  '{"name": [1, {}], "features": "all", "ids": {}, "context": 7}',
  '{not json',
  '[]',
  '"text"',
  'null',
  '{"name": "nul\\u0000here", "description": "x"}',
];
const BAD_QUERY = '?limit=-1&offset=abc&from=2026-99-99&project=%00&sortOrder=sideways&hoursBack=x';

let stack: TestStack;
const CLIENT_TOKEN = 'default:development.bad-input-client';
beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: CLIENT_TOKEN } });
  OPERATIONS = operationsOf((await stack.anonymous.get('/docs/openapi.json')).body);
});
afterAll(() => stack?.dispose());

const specShaped = (body: any) =>
  typeof body?.name === 'string' && typeof body?.message === 'string' && typeof body?.id === 'string';
// SCIM's clients read SCIM's error shape (RFC 7644 §3.12), so /scim/v2 answers in it.
const scimShaped = (body: any, status: number) =>
  Array.isArray(body?.schemas) &&
  body.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error') &&
  body.status === String(status) &&
  typeof body.detail === 'string';
// The OpenFeature CLI reads its manifest API's error shape (open-feature/cli api/v0/sync.yaml).
const manifestShaped = (body: any, status: number) =>
  typeof body?.error?.message === 'string' && body.error.status === status;
const shaped = (path: string, body: any, status: number) =>
  path.startsWith('/scim/')
    ? scimShaped(body, status)
    : path.startsWith('/openfeature/')
      ? manifestShaped(body, status)
      : specShaped(body);

it(
  "answers bad input to every operation without a server error, errors in the spec shape (SCIM's for SCIM, the manifest API's for it)",
  { timeout: 120_000 },
  async () => {
    expect(OPERATIONS.length).toBeGreaterThan(300);
    const failures: string[] = [];
    for (const operation of OPERATIONS) {
      const [method, path] = operation.split(' ') as [string, string];
      const bodies = method === 'GET' || method === 'DELETE' ? [undefined] : BAD_BODIES;
      for (const body of bodies) {
        const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
        const reply = await stack.admin.call(method, `${path}${BAD_QUERY}`, body, headers);
        if (reply.status >= 500)
          failures.push(`${operation} ${body ?? ''} -> ${reply.status} ${reply.text.slice(0, 200)}`);
        else if (reply.status >= 400 && !shaped(path, reply.body, reply.status)) {
          failures.push(
            `${operation} ${body ?? ''} -> ${reply.status} without the error shape: ${reply.text.slice(0, 200)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect((await stack.admin.get('/health')).status).toBe(200);
  },
);

// Keys that reach a prototype when a body is merged or walked: as JSON (each body parser), as a SCIM path, as a form.
const PROTOTYPE_BODIES: [string, string][] = [
  [
    'application/json',
    '{"__proto__": {"polluted": "yes"}, "name": "x", "context": {"__proto__": {"polluted": "yes"}}}',
  ],
  ['application/json', '{"constructor": {"prototype": {"polluted": "yes"}}, "features": ["x"]}'],
  [
    'application/json',
    '{"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], "Operations": [{"op": "add", "path": "__proto__.polluted", "value": "yes"}]}',
  ],
  [
    'application/scim+json',
    '{"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], "Operations": [{"op": "add", "value": {"__proto__": {"polluted": "yes"}}}]}',
  ],
  [
    'application/x-www-form-urlencoded',
    '__proto__%5Bpolluted%5D=yes&constructor%5Bprototype%5D%5Bpolluted%5D=yes&__proto__=x&grant_type=authorization_code&SAMLResponse=x',
  ],
];

it(
  'takes prototype keys in any body to no operation, leaving every prototype as it was',
  { timeout: 120_000 },
  async () => {
    const failures: string[] = [];
    for (const operation of OPERATIONS) {
      const [method, path] = operation.split(' ') as [string, string];
      if (method === 'GET' || method === 'DELETE') continue;
      for (const [type, body] of PROTOTYPE_BODIES) {
        const reply = await stack.admin.call(method, path, body, { 'content-type': type });
        if (reply.status >= 500) failures.push(`${operation} ${type} -> ${reply.status} ${reply.text.slice(0, 200)}`);
        if (
          ({} as Record<string, unknown>).polluted !== undefined ||
          Object.getOwnPropertyNames(Object.prototype).includes('polluted')
        ) {
          failures.push(`${operation} ${type} polluted Object.prototype`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect((await stack.admin.get('/health')).status).toBe(200);
  },
);

it('answers every admin operation without credentials with 401 in the spec shape', { timeout: 60_000 }, async () => {
  const open: string[] = [];
  for (const operation of OPERATIONS) {
    const [method, path] = operation.split(' ') as [string, string];
    if (!path.startsWith('/api/admin/')) continue;
    const reply = await stack.anonymous.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
    if (reply.status !== 401 || reply.body?.name !== 'AuthenticationRequired')
      open.push(`${operation} -> ${reply.status}`);
  }
  expect(open).toEqual([]);
});

it('refuses every admin operation to an SDK token with 403 naming the permission', { timeout: 60_000 }, async () => {
  const sdk = httpClient(stack.url, { authorization: CLIENT_TOKEN });
  const open: string[] = [];
  for (const operation of OPERATIONS) {
    const [method, path] = operation.split(' ') as [string, string];
    if (!path.startsWith('/api/admin/')) continue;
    const reply = await sdk.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
    // A malformed body may be refused (400) before the permission is looked at; it changes nothing either way.
    if (reply.status !== 400 && (reply.status !== 403 || reply.body?.name !== 'NoAccessError'))
      open.push(`${operation} -> ${reply.status}`);
  }
  expect(open).toEqual([]);
});
