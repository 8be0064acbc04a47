import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// dependency-cruiser's parser cannot read TSX here, so the console's one dependency rule is checked by reading it.
const src = fileURLToPath(new URL('../src/', import.meta.url));
const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file));
const specifiers = (text: string) =>
  [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
    ),
  ].map((match) => match[1] ?? match[2] ?? match[3]!);

// The shapes, and the API's generated types (type imports only, so nothing of the client reaches the bundle).
const ALLOWED = new Set(['@bunting/contracts', '@bunting/api-client']);

it('the console imports of the workspace only the shapes and the API types, never a service, other lib or test', () => {
  const offending: string[] = [];
  for (const file of files) {
    for (const specifier of specifiers(readFileSync(path.join(src, file), 'utf8'))) {
      const workspace = specifier.startsWith('@bunting/') && !ALLOWED.has(specifier);
      const outside = specifier.startsWith('.') && !path.resolve(src, path.dirname(file), specifier).startsWith(src);
      if (workspace || outside) offending.push(`${file}: ${specifier}`);
    }
  }
  expect(files.length).toBeGreaterThan(20);
  expect(offending).toEqual([]);
});
