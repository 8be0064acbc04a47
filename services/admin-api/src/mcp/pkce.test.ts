import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { acceptableRedirect, verifierMatches } from './pkce.ts';

describe('PKCE and redirect addresses', () => {
  it('matches a verifier only to its own S256 challenge', () => {
    const verifier = 'a'.repeat(43) + '-._~';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches(`${verifier}x`, challenge)).toBe(false);
    expect(verifierMatches('short', createHash('sha256').update('short').digest('base64url'))).toBe(false);
    expect(verifierMatches(verifier, verifier)).toBe(false);
  });

  it('takes https, loopback http and app schemes, never script or other hosts over http', () => {
    expect(acceptableRedirect('https://client.example/callback')).toBe(true);
    expect(acceptableRedirect('http://127.0.0.1:33418/callback')).toBe(true);
    expect(acceptableRedirect('http://localhost/cb')).toBe(true);
    expect(acceptableRedirect('cursor://anysphere.cursor-mcp/oauth/callback')).toBe(true);
    expect(acceptableRedirect('http://evil.example/cb')).toBe(false);
    expect(acceptableRedirect('javascript:alert(1)')).toBe(false);
    expect(acceptableRedirect('https://client.example/cb#fragment')).toBe(false);
    expect(acceptableRedirect('not a url')).toBe(false);
  });
});
