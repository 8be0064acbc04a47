import type { FastifyInstance } from 'fastify';

/**
 * Takes form-encoded bodies (application/x-www-form-urlencoded) in one scope, as the few routes that receive what
 * a browser or an OAuth client posts need, and no other route does.
 */
export function acceptFormBodies(scope: Pick<FastifyInstance, 'addContentTypeParser'>): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

/** Text made safe to place in HTML, in element content and in quoted attributes alike. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
