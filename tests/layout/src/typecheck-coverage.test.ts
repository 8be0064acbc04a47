import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { read, repositoryRoot } from './source-files.ts';

/**
 * `npm test` type-checks the Node packages in one program (tsconfig.check.json) instead of one program a package.
 * That is only the same check while it covers every folder each package's own tsconfig.json includes, and while every
 * other package keeps a program of its own in `check:types`.
 */
type Config = { include?: string[]; exclude?: string[] };
// tsconfig files may hold line comments; none of ours has `//` inside a string.
const readConfig = (path: string): Config => JSON.parse(read(path).replace(/^\s*\/\/.*$/gm, '')) as Config;

const rootPackage = JSON.parse(read('package.json')) as { workspaces: string[]; scripts: Record<string, string> };
const packages = rootPackage.workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(repositoryRoot, pattern.slice(0, -2)), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
    : [pattern],
);
const withOwnProgram = [...rootPackage.scripts['check:types']!.matchAll(/tsc -p (\S+)\/tsconfig[^ ]*\.json/g)].map(
  (match) => match[1]!,
);
const check = readConfig('tsconfig.check.json');
const asPattern = (glob: string) => new RegExp(`^${glob.replaceAll('.', '\\.').replaceAll('*', '[^/]+')}$`);
const covered = (folder: string) => check.include!.some((glob) => asPattern(glob).test(folder));

describe("npm test's type check", () => {
  it('covers every folder a Node package includes, and excludes only what the package excludes', () => {
    const missing: string[] = [];
    const excluded: string[] = [];
    for (const folder of packages.filter((name) => !withOwnProgram.includes(name))) {
      if (!existsSync(join(repositoryRoot, folder, 'tsconfig.json'))) continue;
      const own = readConfig(`${folder}/tsconfig.json`);
      for (const included of own.include ?? [])
        if (!covered(`${folder}/${included}`)) missing.push(`${folder}/${included}`);
      for (const left of own.exclude ?? []) excluded.push(`${folder}/${left}`);
    }
    expect(missing).toEqual([]);
    expect(check.exclude ?? []).toEqual(excluded);
  });

  it('type-checks the console and the browser tests in programs of their own', () => {
    expect(withOwnProgram).toEqual(expect.arrayContaining(['console', 'tests/browser']));
    expect(packages.filter((name) => existsSync(join(repositoryRoot, name, 'tsconfig.json'))).length).toBeGreaterThan(
      15,
    );
  });
});
