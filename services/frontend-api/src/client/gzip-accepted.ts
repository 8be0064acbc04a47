/**
 * Whether a request's Accept-Encoding takes gzip: named (or `*`) and not with q=0. Node's fetch, undici and the
 * Unleash SDKs built on them send `gzip, deflate`; a client that names nothing gets the plain body.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  let star = false;
  for (const part of value.split(',')) {
    const [named = '', ...parameters] = part
      .toLowerCase()
      .split(';')
      .map((piece) => piece.trim());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    const refused = quality !== undefined && Number(quality.slice(2)) === 0;
    if (named === 'gzip' || named === 'x-gzip') return !refused;
    if (named === '*') star = !refused;
  }
  return star;
}
