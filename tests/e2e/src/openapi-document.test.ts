import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';
import { API_TYPES_FILE, apiTypesOf } from '@bunting/api-client/api-types';

/**
 * /docs/openapi.json, generated from the routes' own schemas: a valid OpenAPI 3.1 document, usable by a client
 * generator (openapi-typescript + openapi-fetch), with the interactive page beside it.
 */
let stack: TestStack;
let document: any;
const frontendToken = 'generated:development.openapi-frontend';
const generatedDir = fileURLToPath(new URL('./generated-client/', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/.bin/tsc', import.meta.url));

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_FRONTEND_API_TOKENS: frontendToken } });
  const reply = await stack.anonymous.get('/docs/openapi.json');
  expect(reply.status).toBe(200);
  document = reply.body;
}, 60_000);
afterAll(() => stack?.dispose());

const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

describe('the OpenAPI document', () => {
  it('is valid OpenAPI (3.0.3, as Unleash publishes) and describes every route this process serves, grouped and named', async () => {
    expect(document.openapi).toBe('3.0.3');
    await SwaggerParser.validate(structuredClone(document));
    const all = operations();
    expect(all.length).toBeGreaterThan(250);
    const ids = all.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, operation } of all) {
      expect(operation.tags, `${method} ${path}`).toHaveLength(1);
      expect(operation.tags[0], `${method} ${path}`).not.toBe('Other');
      // A sentence saying what the operation does, not its method and path again.
      expect(operation.summary, `${method} ${path}`).not.toMatch(/^(GET|POST|PUT|PATCH|DELETE) \//);
      // And a description: what credential it takes, and for a change how it is kept.
      expect(operation.description, `${method} ${path}`).toMatch(/credential|token|cookie/);
      expect(operation.description.length, `${method} ${path}`).toBeGreaterThan(operation.summary.length + 20);
      // Every route declares what it answers on success (a body's schema, or that there is none).
      expect(
        Object.keys(operation.responses).filter((status) => /^[23]/.test(status)),
        `${method} ${path}`,
      ).not.toHaveLength(0);
      // The spec's error shape on every operation, but the OpenFeature manifest API's, which answers in its own.
      const refusal = operation.responses['401'].content['application/json'].schema;
      if (path.startsWith('/openfeature/'))
        expect(refusal.properties.error.required, `${method} ${path}`).toEqual(['message', 'status']);
      else expect(refusal.$ref, `${method} ${path}`).toBe('#/components/schemas/Error');
    }
    expect(document.components.schemas.Error.required).toEqual(['id', 'name', 'message']);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['apiKey', 'session']);
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/\w/);
    // Tags come from one list: each operation's tag is one of the document's, and each of those is used.
    const listed = new Set(document.tags.map((tag: { name: string }) => tag.name));
    for (const { path, method, operation } of all)
      expect(listed.has(operation.tags[0]), `${method} ${path}`).toBe(true);
    expect([...listed].filter((name) => !all.some(({ operation }) => operation.tags[0] === name))).toEqual([]);
    // The spec's endpoints are there, with their parameters.
    for (const [path, method] of [
      ['/api/admin/events', 'get'],
      ['/api/frontend', 'get'],
      ['/invite/{token}/signup', 'post'],
      ['/api/signal-endpoint/{endpointName}', 'post'],
      ['/api/admin/environments', 'post'],
      ['/api/admin/projects/{projectId}/health-report', 'get'],
      ['/api/admin/user-admin', 'get'],
      ['/ofrep/v1/evaluate/flags', 'post'],
    ] as const) {
      expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const created = document.paths['/api/admin/environments'].post;
    expect(created.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'type']),
    );
    expect(Object.keys(created.responses)).toContain('201');
    // The most used bodies carry an example.
    const createFlag =
      document.paths['/api/admin/projects/{projectId}/features'].post.requestBody.content['application/json'];
    expect(createFlag.example).toMatchObject({ name: 'new-checkout', type: 'release' });
  });

  it("is what the typed client's generated types were made from (npm run generate:api-types writes them again)", async () => {
    const generated = await stack.anonymous.get('/docs/openapi-3.1.json');
    expect(generated.body.openapi).toBe('3.1.0');
    expect(await readFile(API_TYPES_FILE, 'utf8')).toBe(await apiTypesOf(generated.body));
  });

  it('has an interactive page', async () => {
    const page = await stack.anonymous.get('/docs/openapi/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
  });

  it('generates a client that compiles against a script using it, and the script works', async () => {
    await writeFile(`${generatedDir}bunting-api.d.ts`, astToString(await openapiTS(structuredClone(document))));
    const compiled = await promisify(execFile)(tsc, ['-p', `${generatedDir}tsconfig.json`, '--noEmit']).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(compiled).toBe('');

    // A computed specifier: the story compiles only against the types generated above, so the package's own
    // typecheck (which runs before any test, on a clone without them) must not follow this import.
    const storyModule = './generated-client/story.ts';
    const { configureThroughGeneratedClient } = (await import(storyModule)) as {
      configureThroughGeneratedClient: (
        url: string,
        token: string,
      ) => Promise<{ statuses: number[]; flag?: { environments: unknown[] }; missing: unknown }>;
    };
    const result = await configureThroughGeneratedClient(stack.url, stack.adminToken);
    expect(result.statuses).toEqual([201, 201, 200, 200, 200]);
    expect(result.flag?.environments).toContainEqual({ name: 'development', enabled: true });
    expect(result.missing).toMatchObject({ status: 404, error: { name: 'NotFoundError' } });
    const frontend = httpClient(stack.url, { authorization: frontendToken });
    await eventually(
      async () => (await frontend.get('/api/frontend?userId=ada')).body.toggles?.[0]?.name === 'typed-flag',
    );
  }, 60_000);
});
