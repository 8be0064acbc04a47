import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isMap, isNode, isScalar, LineCounter, parseDocument, stringify } from 'yaml';
import { ProjectFile } from './model.ts';

/** A problem in a file, pointed at the line a reader fixes. */
export class FileError extends Error {
  readonly file: string;
  readonly line: number;
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
    this.file = file;
    this.line = line;
  }
}

export interface LoadedProject {
  readonly file: string;
  readonly content: ProjectFile;
  /** The line of a path in the file, for errors found after parsing (a missing segment). */
  readonly lineOf: (path: readonly (string | number)[]) => number;
}

async function projectFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const entries = await readdir(path, { recursive: true });
  return entries
    .filter((entry) => /\.ya?ml$/.test(entry))
    .sort()
    .map((entry) => join(path, entry));
}

export async function loadProjects(path: string): Promise<LoadedProject[]> {
  const loaded: LoadedProject[] = [];
  for (const file of await projectFiles(path)) {
    const shown = relative(process.cwd(), file) || file;
    loaded.push(parseProject(shown, await readFile(file, 'utf8')));
  }
  const seen = new Map<string, string>();
  for (const project of loaded) {
    const name = project.content.project;
    if (name === undefined) continue;
    const other = seen.get(name);
    if (other) throw new FileError(project.file, project.lineOf(['project']), `project ${name} is also in ${other}`);
    seen.set(name, project.file);
  }
  const withTemplates = loaded.filter((project) => project.content.releaseTemplates !== undefined);
  if (withTemplates.length > 1)
    throw new FileError(
      withTemplates[1]!.file,
      withTemplates[1]!.lineOf(['releaseTemplates']),
      `release templates are also in ${withTemplates[0]!.file}: one file holds them`,
    );
  const withFields = loaded.filter((project) => project.content.contextFields !== undefined);
  if (withFields.length > 1)
    throw new FileError(
      withFields[1]!.file,
      withFields[1]!.lineOf(['contextFields']),
      `context fields are also in ${withFields[0]!.file}: one file holds them`,
    );
  return loaded;
}

export function parseProject(file: string, text: string): LoadedProject {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const firstError = document.errors[0];
  if (firstError) throw new FileError(file, firstError.linePos?.[0]?.line ?? 1, firstError.message.split('\n')[0]!);
  const lineOf = (path: readonly (string | number)[]) => {
    // The deepest part of the path the file has; a map entry by its key's line, not its value's.
    for (let depth = path.length; depth > 0; depth--) {
      const parent = document.getIn(path.slice(0, depth - 1), true);
      const last = path[depth - 1];
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === String(last));
        if (pair && isNode(pair.key) && pair.key.range) return lines.linePos(pair.key.range[0]).line;
      }
      const node = document.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return 1;
  };
  const parsed = ProjectFile.safeParse(document.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    const unknownKey = issue.code === 'unrecognized_keys' ? [...path, (issue as { keys: string[] }).keys[0]!] : path;
    const where = path.length > 0 ? `${path.join('.')}: ` : '';
    throw new FileError(file, lineOf(unknownKey), `${where}${issue.message}`);
  }
  return { file, content: parsed.data, lineOf };
}

export const SCHEMA_URL =
  'https://raw.githubusercontent.com/bunting-flags/bunting/main/cli/schema/bunting-project.schema.json';

export function renderProject(content: ProjectFile): string {
  return `# yaml-language-server: $schema=${SCHEMA_URL}\n${stringify(content, { lineWidth: 0, sortMapEntries: false })}`;
}
