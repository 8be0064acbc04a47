import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Every file under `directory` whose name passes `keep`, as paths relative to the repository. */
export function filesUnder(directory: string, keep: (name: string) => boolean): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
      return keep(entry.name) ? [path] : [];
    });
  return walk(join(repositoryRoot, directory)).map((path) => relative(repositoryRoot, path).split(sep).join('/'));
}

export const read = (path: string) => readFileSync(join(repositoryRoot, path), 'utf8');

/** The services with a database: those with migrations. */
export function servicesWithMigrations(): string[] {
  return readdirSync(join(repositoryRoot, 'services'), { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && readdirSync(join(repositoryRoot, 'services', entry.name)).includes('migrations'),
    )
    .map((entry) => entry.name);
}

/** A source file's slice: the folder under its service's src/ ("." for a file directly in src/). */
export function sliceOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 4 ? parts[3]! : '.';
}
