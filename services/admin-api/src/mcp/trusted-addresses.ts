import type { FastifyRequest } from 'fastify';
import { DomainError } from '@bunting/platform';
import type { AdminConfig } from '../admin-config.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The name of a Host header, lower case, without its port. */
function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.replace(/:\d+$/, '');
}

/**
 * Which addresses the MCP server and its OAuth endpoints answer. A page on another site can make a browser send
 * requests here under a name that resolves to this server (DNS rebinding), and it can send its own Origin: so the
 * Host must be loopback, the public address's (BUNTING_URL / UNLEASH_URL) or one ALLOWED_HOSTS names, and an Origin,
 * when a browser sends one, must be this service's own or one MCP_ALLOWED_ORIGINS names.
 */
export function trustedAddresses(
  config: Pick<AdminConfig, 'baseUrl' | 'baseUrlConfigured' | 'allowedHosts' | 'mcpAllowedOrigins'>,
) {
  const publicUrl = config.baseUrlConfigured ? new URL(config.baseUrl) : null;
  const names = new Set([...LOOPBACK, ...config.allowedHosts.map(hostName)]);
  if (publicUrl) names.add(hostName(publicUrl.host));
  const origins = new Set(config.mcpAllowedOrigins);
  if (publicUrl) origins.add(publicUrl.origin.toLowerCase());

  const hostAllowed = (request: FastifyRequest) => names.has(hostName(request.host));
  return {
    hostAllowed,
    /** Refuses (403) a request under another name, or from another site's page. */
    check(request: FastifyRequest): void {
      if (!hostAllowed(request)) {
        throw new DomainError(
          403,
          'NoAccessError',
          `This server does not answer for the host ${request.host}: add it to ALLOWED_HOSTS if it is this installation's.`,
        );
      }
      const origin = request.headers.origin;
      if (origin === undefined) return;
      const given = origin.toLowerCase();
      // Without a configured public address, the address the request came in on (a name allowed above) is ours.
      const own = publicUrl === null && given === `${request.protocol}://${request.host}`.toLowerCase();
      if (!own && !origins.has(given)) {
        throw new DomainError(
          403,
          'NoAccessError',
          `Requests from pages at ${origin} are refused: add the origin to MCP_ALLOWED_ORIGINS if it may use this server.`,
        );
      }
    },
    /** The address metadata is written with: the configured one, else the request's (its host checked first). */
    baseOf(request: FastifyRequest): string {
      if (publicUrl) return config.baseUrl.replace(/\/+$/, '');
      if (!hostAllowed(request)) {
        throw new DomainError(
          403,
          'NoAccessError',
          `This server does not answer for the host ${request.host}: set BUNTING_URL, or add the host to ALLOWED_HOSTS.`,
        );
      }
      return `${request.protocol}://${request.host}`;
    },
  };
}
