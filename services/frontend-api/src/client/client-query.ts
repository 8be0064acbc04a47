import type { FastifyRequest } from 'fastify';
import semver from 'semver';
import { z } from 'zod';

/** SDKs that declare client spec 4.3.0 or later take segments once; older ones get them inlined. */
export function inlinesSegments(request: FastifyRequest): boolean {
  const spec = request.headers['unleash-client-spec'];
  const version = typeof spec === 'string' ? semver.coerce(spec) : null;
  return !(version && semver.gte(version, '4.3.0'));
}

/** What an SDK may narrow its flags by: projects within its token's, a name prefix. */
export const FeaturesQuery = z
  .object({
    project: z.union([z.string().max(255), z.array(z.string().max(255)).max(100)]).optional(),
    namePrefix: z.string().max(255).optional(),
    environment: z.string().max(255).optional(),
    /** "type:value"; a flag with any of them is sent. */
    tag: z.union([z.string().max(255), z.array(z.string().max(255)).max(100)]).optional(),
  })
  .loose();

export function tagsOf(requested: string | string[] | undefined): string[] | undefined {
  if (requested === undefined) return undefined;
  return Array.isArray(requested) ? requested : [requested];
}

export function narrowProjects(tokenProjects: readonly string[], requested: string | string[] | undefined): string[] {
  const wanted = requested === undefined ? [] : Array.isArray(requested) ? requested : [requested];
  if (wanted.length === 0) return [...tokenProjects];
  if (tokenProjects.includes('*')) return wanted;
  return wanted.filter((project) => tokenProjects.includes(project));
}
