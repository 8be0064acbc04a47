import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Unleash's own web UI (the static build inside the `unleash-server` package, a test-only dependency nothing at run
 * time imports) served as Unleash serves it, with its API calls sent on to a Bunting stack: one origin for the
 * browser, so the session cookie and same-origin checks behave as behind any reverse proxy.
 */
export function unleashUiBuild(): string {
  // Found by walking up from here: the package's exports do not offer its files to a resolver.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', 'unleash-server', 'frontend', 'build');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('unleash-server is not installed (a devDependency of tests/browser)');
    dir = parent;
  }
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.gif': 'image/gif',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
};

/** Paths Unleash's server answers itself; everything else is the UI's (files, or index.html for its routes). */
const API = /^\/(api|auth|logout|health|ready|invite|edge)(\/|$|\?)/;

export async function startUnleashUi(buntingUrl: string) {
  const build = unleashUiBuild();
  // The placeholders Unleash's server fills: served at the root, no CDN, no UI flags of its own.
  const index = readFileSync(join(build, 'index.html'), 'utf8')
    .replaceAll('::baseUriPath::', '')
    .replaceAll('::faviconPrefix::', '')
    .replaceAll('::cdnPrefix::', '')
    .replaceAll('::uiFlags::', '{}')
    .replaceAll('::unleashToken::', '');
  const target = new URL(buntingUrl);

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const path = incoming.url ?? '/';
    if (API.test(path)) {
      const upstream = forward(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path,
          headers: { ...incoming.headers, 'x-forwarded-host': incoming.headers.host ?? '' },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.writeHead(502).end());
      incoming.pipe(upstream);
      return;
    }
    const file = normalize(join(build, decodeURIComponent(path.split('?')[0]!)));
    if (file.startsWith(build) && existsSync(file) && statSync(file).isFile() && !file.endsWith('index.html')) {
      outgoing.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      createReadStream(file).pipe(outgoing);
      return;
    }
    outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(index);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
