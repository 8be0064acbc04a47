import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { parseSync } from '@swc/core';
import { read, repositoryRoot } from './source-files.ts';

/** Every module specifier a TypeScript or TSX file imports (static, dynamic and re-exports), as written. */
export function importSpecifiers(file: string): string[] {
  const program = parseSync(read(file), { syntax: 'typescript', tsx: file.endsWith('.tsx') });
  const specifiers: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (
      (record.type === 'ImportDeclaration' ||
        record.type === 'ExportAllDeclaration' ||
        record.type === 'ExportNamedDeclaration') &&
      record.source
    ) {
      specifiers.push((record.source as { value: string }).value);
    }
    if (record.type === 'CallExpression' && (record.callee as { type?: string })?.type === 'Import') {
      const argument = (record.arguments as { expression: { type: string; value?: string } }[])[0]?.expression;
      if (argument?.type === 'StringLiteral') specifiers.push(argument.value!);
    }
    for (const value of Object.values(record)) if (value && typeof value === 'object') visit(value);
  };
  visit(program.body);
  return specifiers;
}

/** The files a module imports, resolved to paths in the repository. */
export function localImports(file: string): string[] {
  return importSpecifiers(file)
    .filter((specifier) => specifier.startsWith('.'))
    .flatMap((specifier) => {
      const target = normalize(join(dirname(file), specifier));
      return [target, `${target}.ts`, `${target}.tsx`]
        .filter((candidate) => existsSync(join(repositoryRoot, candidate)))
        .slice(0, 1);
    });
}

/** The strongly connected groups of more than one node (or a node importing itself): each is a cycle. */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || graph.get(node)?.has(node)) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) connect(node);
  return found;
}
