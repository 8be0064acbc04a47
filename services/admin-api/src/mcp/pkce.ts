import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 S256: the challenge is base64url(sha256(verifier)); compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** Where a client may be sent back to: an absolute http(s) address or a native app's own scheme; never script. */
export function acceptableRedirect(uri: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return false;
  }
  if (parsed.hash !== '') return false;
  if (['javascript:', 'data:', 'file:', 'vbscript:', 'blob:'].includes(parsed.protocol)) return false;
  // Plain http only to this machine (RFC 8252's loopback redirect for native clients).
  if (parsed.protocol === 'http:') return ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  return true;
}
