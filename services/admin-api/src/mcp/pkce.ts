import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 S256: the challenge is base64url(sha256(verifier)); compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * Where a client may be sent back to (RFC 8252, RFC 9700 §4.1): https, http only to this machine's loopback address,
 * and a native app's private-use scheme in reverse-domain form (com.example.app:/callback), which names a domain
 * its maker controls; `extraSchemes` are schemes an admin allows by name (MCP_REDIRECT_SCHEMES). No fragment.
 */
export function acceptableRedirect(uri: string, extraSchemes: readonly string[] = []): boolean {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return false;
  }
  if (parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.protocol === 'https:') return parsed.hostname !== '';
  if (parsed.protocol === 'http:') return ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  const scheme = parsed.protocol.slice(0, -1);
  return extraSchemes.includes(scheme) || /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/.test(scheme);
}
