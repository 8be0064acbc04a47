import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt']);

/**
 * Writes a brotli and a gzip copy beside each text asset, once at build time, so admin-api serves the small
 * copy without compressing on every request.
 */
export async function compressAssets(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  await Promise.all(
    entries
      .filter((entry) => entry.isFile() && COMPRESSIBLE.has(path.extname(entry.name)))
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        const content = await readFile(file);
        if (content.length < 1024) return;
        await writeFile(`${file}.br`, await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        await writeFile(`${file}.gz`, await gzipAsync(content, { level: 9 }));
      }),
  );
}
