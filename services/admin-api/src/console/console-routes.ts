import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Scripts only from this origin (no inline script, no eval); inline styles are allowed because the component
 * library sets CSS variables at run time. Nothing may frame the console.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** Paths that are never console pages: an unknown API path keeps its JSON 404. */
const NOT_PAGES = /^\/(api|auth|logout|edge|health|ready|metrics|internal)(\/|$)/;

type Encoded = { body: Buffer; encoding: 'br' | 'gzip' | null };

/** The file, or its precompressed copy the build wrote beside it when the browser accepts that encoding. */
async function readEncoded(file: string, acceptEncoding: string | undefined): Promise<Encoded | null> {
  const accepts = acceptEncoding ?? '';
  for (const [suffix, encoding] of [
    ['.br', 'br'],
    ['.gz', 'gzip'],
  ] as const) {
    if (!accepts.includes(encoding)) continue;
    const body = await readFile(`${file}${suffix}`).catch(() => null);
    if (body) return { body, encoding };
  }
  const body = await readFile(file).catch(() => null);
  return body ? { body, encoding: null } : null;
}

function send(reply: FastifyReply, file: string, found: Encoded, cacheControl: string) {
  reply.header('content-type', TYPES[path.extname(file)] ?? 'application/octet-stream');
  reply.header('cache-control', cacheControl);
  reply.header('vary', 'accept-encoding');
  if (found.encoding) reply.header('content-encoding', found.encoding);
  return reply.send(found.body);
}

/**
 * The web console, built into `dir` (console/dist): hashed assets are cached for good, index.html is asked for
 * again each time (with an ETag, so unchanged costs a 304), and any page address the console knows gets
 * index.html, whose router draws the page.
 */
export function consoleRoutes(app: HttpServer, { config, log }: Pick<AdminDeps, 'config' | 'log'>) {
  const dir = config.consoleDir;
  if (dir === null) return;
  const root = path.resolve(dir);
  let warned = false;

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = await readFile(path.join(root, 'index.html')).catch(() => null);
    if (!index) {
      if (!warned) log.warn({ dir: root }, 'the console is not built; `npm run build -w console` builds it');
      warned = true;
      throw new NotFoundError('The web console is not built here. Run `npm run build -w console`, or use the API.');
    }
    const etag = `"${createHash('sha1').update(index).digest('base64url')}"`;
    reply.header('content-security-policy', CONSOLE_CSP);
    reply.header('etag', etag);
    reply.header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(index);
  };

  app.get('/assets/*', async (request, reply) => {
    const file = path.resolve(root, 'assets', (request.params as { '*': string })['*']);
    // A path that climbs out of the assets folder is not an asset.
    if (!file.startsWith(path.join(root, 'assets') + path.sep)) throw new NotFoundError('No such asset');
    const found = await readEncoded(file, request.headers['accept-encoding']);
    if (!found) throw new NotFoundError('No such asset');
    // Names carry a hash of the content: a changed file gets a new name, so a copy may be kept forever.
    return send(reply, file, found, 'public, max-age=31536000, immutable');
  });

  app.get('/*', async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    if (NOT_PAGES.test(pathname)) throw new NotFoundError(`Could not find GET ${pathname}`);
    // Files sit at the top of the build (the icon); deeper addresses are pages, whatever their last segment looks
    // like: a flag may be named checkout.new-flow, and its page's address must open the console.
    if (path.extname(pathname) && !pathname.slice(1).includes('/')) {
      // Asked for again each time.
      let file: string;
      try {
        file = path.resolve(root, `.${decodeURIComponent(pathname)}`);
      } catch {
        throw new NotFoundError(`Could not find GET ${pathname}`);
      }
      const found =
        file.startsWith(root + path.sep) && !file.endsWith('index.html')
          ? await readEncoded(file, request.headers['accept-encoding'])
          : null;
      if (!found) throw new NotFoundError(`Could not find GET ${pathname}`);
      return send(reply, file, found, 'no-cache');
    }
    return page(request, reply);
  });
}
