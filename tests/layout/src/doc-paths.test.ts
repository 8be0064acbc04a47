import { describe, expect, it } from 'vitest';
import { filesUnder, read } from './source-files.ts';

/**
 * The Markdown documents name the repository's files and folders in backticks; each must exist. A path may be given
 * from the repository's root or from any folder in it (`snapshots/feature-set.ts`, as a slice names its files), so it
 * is found when some file or folder of the repository ends with it.
 */
const SKIPPED = ['node_modules', 'dist', '.git', 'screenshots'];
const files = filesUnder('.', () => true).filter((path) => !path.split('/').some((part) => SKIPPED.includes(part)));
const folders = new Set(
  files.flatMap((path) =>
    path
      .split('/')
      .slice(0, -1)
      .map((_, index, parts) => parts.slice(0, index + 1).join('/')),
  ),
);
const documents = files.filter((path) => path.endsWith('.md') && !path.startsWith('console/public/'));

/** Backticked text that names a file or folder of this repository (not a URL, an API path, a glob or a placeholder). */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!)
    .filter((token) => /^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(token) && token.includes('/') && !token.startsWith('/'))
    .filter(
      (token) =>
        /\.(ts|tsx|md|json|sh|sql|ya?ml|cjs|conf|css|html)$/.test(token) ||
        token.endsWith('/') ||
        /^(services|libs|tests|console|deploy|bench|launcher|docs)\//.test(token),
    );
}

// Made by builds and tests, never committed.
const GENERATED = ['console/dist', 'launcher/dist', 'tests/browser/screenshots'];

const exists = (path: string) => {
  const bare = path.replace(/\/$/, '');
  if (GENERATED.some((folder) => bare === folder || bare.startsWith(`${folder}/`))) return true;
  return (
    files.includes(bare) ||
    folders.has(bare) ||
    files.some((file) => file.endsWith(`/${bare}`)) ||
    [...folders].some((folder) => folder.endsWith(`/${bare}`))
  );
};

describe('the documents', () => {
  it('name only files and folders that exist', () => {
    expect(documents.length).toBeGreaterThan(3);
    const missing = documents.flatMap((document) =>
      namedPaths(read(document))
        .filter((path) => !exists(path))
        .map((path) => `${document}: ${path}`),
    );
    expect(missing).toEqual([]);
  });
});
