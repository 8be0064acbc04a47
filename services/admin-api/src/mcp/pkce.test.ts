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

  it('takes https, loopback http and reverse-domain app schemes, nothing else', () => {
    expect(acceptableRedirect('https://client.example/callback')).toBe(true);
    expect(acceptableRedirect('http://127.0.0.1:33418/callback')).toBe(true);
    expect(acceptableRedirect('http://localhost/cb')).toBe(true);
    expect(acceptableRedirect('http://[::1]:8080/cb')).toBe(true);
    expect(acceptableRedirect('com.example.agent:/oauth/callback')).toBe(true);
    expect(acceptableRedirect('dev.zed.editor://callback')).toBe(true);
    expect(acceptableRedirect('cursor://anysphere.cursor-mcp/oauth/callback')).toBe(false);
    expect(acceptableRedirect('cursor://anysphere.cursor-mcp/oauth/callback', ['cursor'])).toBe(true);
    for (const refused of [
      'http://evil.example/cb',
      'javascript:alert(1)',
      'https://client.example/cb#fragment',
      'not a url',
      'ws://127.0.0.1/cb',
      'wss://client.example/cb',
      'ftp://client.example/cb',
      'view-source:https://client.example/',
      'data:text/html,x',
      'file:///etc/passwd',
      'https://user:pass@client.example/cb',
      'about:blank',
      'chrome-extension://abc/cb',
    ]) {
      expect(acceptableRedirect(refused), refused).toBe(false);
    }
  });
});
