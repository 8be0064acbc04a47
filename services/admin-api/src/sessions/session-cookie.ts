import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@bunting/platform';

/**
 * HttpOnly and SameSite=Lax always; Secure when the public address is https or the request came through a trusted
 * proxy that says it was https (request.protocol honours X-Forwarded-Proto only from TRUST_PROXY addresses).
 */
function attributes(request: FastifyRequest, publicUrl: string): string {
  const secure = publicUrl.startsWith('https:') || request.protocol === 'https';
  return `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function sessionCookie(request: FastifyRequest, publicUrl: string, id: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(id)}; ${attributes(request, publicUrl)}; Max-Age=${maxAgeSeconds}`;
}

export function clearedSessionCookie(request: FastifyRequest, publicUrl: string): string {
  return `${SESSION_COOKIE}=; ${attributes(request, publicUrl)}; Max-Age=0`;
}
