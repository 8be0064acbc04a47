import { describe, expect, it } from 'vitest';
import { cycles, importSpecifiers, localImports } from './module-graph.ts';
import { filesUnder } from './source-files.ts';

/**
 * The console's dependency rules, read from its TSX with swc (dependency-cruiser's parser reads no JSX): its folders
 * (one per resource, mirroring admin-api's slices, with api/, ui/ and layout/ beneath them) import each other in one
 * direction, files form no cycle, and the console reaches the rest of the repository only through @bunting/contracts.
 */
const files = filesUnder('console/src', (name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts'));
const folderOf = (file: string) => file.split('/')[2]!;
const imports = new Map(files.map((file) => [file, localImports(file)]));

describe('the console', () => {
  it('has no cycle between its folders', () => {
    const graph = new Map<string, Set<string>>();
    for (const [file, targets] of imports) {
      const from = folderOf(file);
      const edges = graph.get(from) ?? new Set<string>();
      for (const target of targets)
        if (target.startsWith('console/src/') && folderOf(target) !== from) edges.add(folderOf(target));
      graph.set(from, edges);
    }
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycle between its files', () => {
    expect(cycles(new Map([...imports].map(([file, targets]) => [file, new Set(targets)])))).toEqual([]);
  });

  it("imports nothing of the repository outside console/ but the contracts and the API's generated types", () => {
    const outside = [...imports].flatMap(([file, targets]) =>
      targets.filter((target) => !target.startsWith('console/')).map((target) => `${file} -> ${target}`),
    );
    const packages = files.flatMap((file) =>
      importSpecifiers(file)
        .filter(
          (specifier) =>
            specifier.startsWith('@bunting/') && !['@bunting/contracts', '@bunting/api-client'].includes(specifier),
        )
        .map((specifier) => `${file} -> ${specifier}`),
    );
    expect([...outside, ...packages]).toEqual([]);
  });
});
