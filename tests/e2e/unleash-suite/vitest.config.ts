import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Unleash 8.2's own e2e files (from the unleash-server package), run over HTTP against a fresh Bunting or Unleash
 * for each file: `npm run compare:unleash-e2e` runs them against both and lists where they disagree. Not part of
 * `npm test`: it takes a quarter of an hour, most of it starting Unleash.
 */
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const unleash = join(root, 'node_modules/unleash-server/dist');

/** The e2e files under a folder (globs do not look into node_modules). */
const e2eFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? e2eFiles(join(folder, entry.name))
      : entry.name.endsWith('.e2e.test.js')
        ? [relative(root, join(folder, entry.name))]
        : [],
  );

export default defineConfig({
  root,
  resolve: {
    alias: [
      { find: /^(\.\.\/)+(test\/e2e\/)?helpers\/test-helper\.js$/, replacement: here('./test-helper.ts') },
      { find: /^(\.\.\/)+(test\/e2e\/)?helpers\/database-init\.js$/, replacement: here('./database-init.ts') },
    ],
  },
  test: {
    include: process.env.UNLEASH_SUITE_FILES?.split(',') ?? [
      ...e2eFiles(join(unleash, 'test/e2e/api')),
      ...e2eFiles(join(unleash, 'lib/features')),
    ],
    exclude: [],
    globals: true,
    setupFiles: [here('./jest-globals.ts')],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    server: { deps: { inline: [/unleash-server\/dist\/.*\.e2e\.test\.js$/] } },
  },
});
