import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A checkout of `revision` beside the project at `root`, using the project's installed packages but its own
 * workspaces, so a benchmark can run two revisions side by side.
 */
export function checkout(root: string, revision: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'bunting-base-'));
  execFileSync('git', ['worktree', 'add', '--detach', directory, revision], { cwd: root, stdio: 'ignore' });
  const modules = join(root, 'node_modules');
  mkdirSync(join(directory, 'node_modules', '@bunting'), { recursive: true });
  for (const entry of readdirSync(modules)) {
    if (entry !== '@bunting') symlinkSync(join(modules, entry), join(directory, 'node_modules', entry));
  }
  // The workspaces' links are relative, so the same links point into the checkout.
  for (const entry of readdirSync(join(modules, '@bunting'))) {
    symlinkSync(readlinkSync(join(modules, '@bunting', entry)), join(directory, 'node_modules', '@bunting', entry));
  }
  return directory;
}

/** A revision's short name, as the benchmarks label the side that runs it. */
export function shortRevision(root: string, revision: string): string {
  return execFileSync('git', ['rev-parse', '--short', revision], { cwd: root, encoding: 'utf8' }).trim();
}

export function removeCheckout(root: string, directory: string): void {
  execFileSync('git', ['worktree', 'remove', '--force', directory], { cwd: root, stdio: 'ignore' });
}
