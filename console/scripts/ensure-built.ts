import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressAssets } from './compress-assets.ts';

const consoleDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = path.resolve(consoleDir, '..');
const distDir = path.join(consoleDir, 'dist');
const stampFile = path.join(distDir, '.source-hash');

/** Everything the build reads: the console's sources and config, the shapes it imports, the locked dependency versions. */
const INPUTS = [
  path.join(consoleDir, 'src'),
  path.join(consoleDir, 'public'),
  path.join(consoleDir, 'index.html'),
  path.join(consoleDir, 'vite.config.ts'),
  path.join(consoleDir, 'package.json'),
  path.join(repoDir, 'libs', 'contracts', 'src'),
  path.join(repoDir, 'package-lock.json'),
];

async function filesUnder(entry: string): Promise<string[]> {
  if (!existsSync(entry)) return [];
  const items = await readdir(entry, { withFileTypes: true }).catch(() => null);
  if (items === null) return [entry];
  const nested = await Promise.all(items.map((item) => filesUnder(path.join(entry, item.name))));
  return nested.flat().sort();
}

/** A hash of every input's path and content: equal hashes mean the last build is still this build. */
export async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of (await Promise.all(INPUTS.map(filesUnder))).flat()) {
    if (file.endsWith('.test.ts')) continue;
    hash
      .update(path.relative(repoDir, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Builds the console unless the build on disk came from the same sources. Returns whether it built. */
export async function ensureConsoleBuilt(log: (line: string) => void = (line) => console.log(line)): Promise<boolean> {
  const wanted = await sourceHash();
  const current = await readFile(stampFile, 'utf8').catch(() => '');
  if (current.trim() === wanted && existsSync(path.join(distDir, 'index.html'))) return false;
  const started = Date.now();
  log('Building the web console (once; again only when its sources change)...');
  const { build } = await import('vite');
  // Vite builds React's development version when NODE_ENV says so (vitest sets it to "test"): this is a production build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: consoleDir,
      mode: 'production',
      logLevel: 'warn',
      configFile: path.join(consoleDir, 'vite.config.ts'),
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  await compressAssets(distDir);
  await writeFile(stampFile, `${wanted}\n`);
  log(`Web console built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensureConsoleBuilt();
}
