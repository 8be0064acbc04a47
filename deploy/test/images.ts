// The images the deploy test runs: this commit's, and the one before the last change of a migration, which the
// rolling upgrade starts from (so the upgrade migrates a schema under code that was written before it).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, runAsync, say } from './harness.ts';

/** A clean copy of `commit` (what is committed, nothing installed or built), in a new temporary folder. */
export function cleanCopy(commit: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'bunting-deploy-'));
  run('sh', ['-c', `git archive ${commit} | tar -x -C ${folder}`]);
  return folder;
}

/**
 * The commit before the newest one that changed a service's migrations, or undefined when this clone's history does
 * not reach it (a shallow clone).
 */
export function beforeLastMigration(): string | undefined {
  const changed = run('git', ['log', '-1', '--format=%H', '--', 'services/*/migrations/*'], { quiet: true }).trim();
  if (!changed) return undefined;
  try {
    return run('git', ['rev-parse', '--verify', '--quiet', `${changed}^`], { quiet: true }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Builds `tag` from a clean copy, as a user does; answers the seconds it took and the image's size in MB. It does not
 * block, so the two images the test needs build at once: most of a build waits on the registry and on single-threaded
 * steps, and on two cores the pair takes little more than the longer one.
 */
export async function buildImage(folder: string, tag: string): Promise<{ seconds: number; megabytes: number }> {
  const begin = Date.now();
  await runAsync('docker', ['build', '--network', 'host', '-q', '-f', 'deploy/Dockerfile', '-t', tag, '.'], {
    cwd: folder,
    quiet: true,
  });
  const size = Number(run('docker', ['image', 'inspect', tag, '--format', '{{.Size}}'], { quiet: true }).trim());
  return { seconds: Math.round((Date.now() - begin) / 1000), megabytes: Math.round(size / 1024 / 1024) };
}

/**
 * The earlier version as its users built it: its code with its own Dockerfile (this commit's may build what the
 * earlier code does not have, such as the built edge). Answers the folder of its clean copy once built.
 */
export async function buildPrevious(commit: string, tag: string): Promise<string> {
  const folder = cleanCopy(commit);
  const built = await buildImage(folder, tag);
  say(`previous version (${commit.slice(0, 7)}) built in ${built.seconds} s, ${built.megabytes} MB`);
  return folder;
}
