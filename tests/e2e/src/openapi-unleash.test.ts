import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import enforcer from 'openapi-enforcer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, startUnleashPeer, type TestStack, type UnleashPeer } from '@bunting/test-stack';

/**
 * Bunting's API document put through the checks Unleash 8.2 puts its own through (its openapi.e2e test, run here over
 * HTTP): swagger-parser, openapi-enforcer with Unleash's options, tags from Unleash's approved list and listed at the
 * root, a summary and a description on every operation. And each operation Unleash has carries Unleash's tag, as a
 * running Unleash 8.2 documents it.
 */
type Operation = { tags: string[]; summary?: string; description?: string; operationId: string };
type Document = {
  openapi: string;
  info: { version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
};

let stack: TestStack;
let peer: UnleashPeer;
let ours: Document;
let theirs: Document;

/** Unleash's approved tags, from the server package itself (its exports name only the library, so by file). */
async function approvedTags(): Promise<string[]> {
  const lib = dirname(createRequire(import.meta.url).resolve('unleash-server'));
  const module = (await import(pathToFileURL(join(lib, 'openapi/util/openapi-tags.js')).href)) as {
    openApiTags: { name: string }[];
  };
  return module.openApiTags.map((tag) => tag.name);
}

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );

beforeAll(async () => {
  [stack, peer] = await Promise.all([startTestStack(), startUnleashPeer()]);
  ours = (await stack.anonymous.get('/docs/openapi.json')).body as Document;
  theirs = (await (await fetch(`${peer.url}/docs/openapi.json`)).json()) as Document;
}, 180_000);
afterAll(async () => {
  await stack?.dispose();
  await peer?.stop();
});

describe("Bunting's API document under Unleash's own checks", () => {
  it('is OpenAPI 3.0.3, as Unleash publishes, and swagger-parser finds it valid', async () => {
    expect(ours.openapi).toBe(theirs.openapi);
    await SwaggerParser.validate(structuredClone(ours) as never);
    expect(ours.info.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  // The enforcer walks the whole document on one core: 17 s alone, over 30 s beside another test file.
  it('passes openapi-enforcer with the options Unleash runs it with, one warning kept', async () => {
    const [, error, warning] = (await enforcer(structuredClone(ours), {
      fullResult: true,
      componentOptions: { exceptionSkipCodes: ['WSCH001', 'WSCH005'] },
    })) as [unknown, { toString(): string } | undefined, { toString(): string } | undefined];
    expect(error?.toString()).toBeUndefined();
    // Kept: an OAuth client registration (RFC 7591) answers 201 and has no address of its own to put in a Location.
    const warnings = (warning?.toString() ?? '').split('\n').filter((line) => /\[W[A-Z]+\d+\]/.test(line));
    expect(warnings, warning?.toString()).toHaveLength(1);
    expect(warning?.toString()).toMatch(/\/oauth\/register > post > responses > 201\n.*\[WRES001\]/);
  }, 90_000);

  it("uses only Unleash's approved tags, each listed at the root, and gives every operation a summary and a description", async () => {
    const approved = await approvedTags();
    expect(ours.tags.map((tag) => tag.name).filter((name) => !approved.includes(name))).toEqual([]);
    const listed = new Set(ours.tags.map((tag) => tag.name));
    const all = operations(ours);
    expect(all.filter(({ operation }) => !operation.tags.every((tag) => listed.has(tag)))).toEqual([]);
    expect(all.filter(({ operation }) => !operation.summary || !operation.description).map(({ path }) => path)).toEqual(
      [],
    );
  });

  it('tags each operation Unleash also has as Unleash 8.2 tags it', () => {
    const differences = operations(ours).flatMap(({ path, method, operation }) => {
      const reference = theirs.paths[path]?.[method] ?? theirs.paths[`${path}/`]?.[method];
      return reference && reference.tags[0] !== operation.tags[0]
        ? [`${method} ${path}: ${operation.tags[0]}, Unleash ${reference.tags[0]}`]
        : [];
    });
    expect(operations(ours).filter(({ path, method }) => theirs.paths[path]?.[method]).length).toBeGreaterThan(150);
    expect(differences).toEqual([]);
  });
});
