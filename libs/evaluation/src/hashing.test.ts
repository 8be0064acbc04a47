import { describe, expect, it } from 'vitest';
import { normalizedValue } from './hashing.ts';
import { compileEngine } from './engine.ts';

describe('normalizedValue', () => {
  it('matches the reference vectors, non-ASCII ids included', () => {
    expect(normalizedValue('25', 'Feature.flexibleRollout.userId.55')).toBe(55);
    expect(normalizedValue('123', 'Feature.flexibleRollout.userId.55')).toBe(84);
    expect(normalizedValue('ø-user', 'my-flag')).toBe(24);
    expect(normalizedValue('用户', 'my-flag')).toBe(68);
  });
});

describe('engine corners the specification does not cover', () => {
  const engine = compileEngine({
    features: [
      {
        name: 'v6',
        enabled: true,
        strategies: [{ name: 'remoteAddress', parameters: { IPs: '2001:db8::/32, 10.0.0.0/8' } }],
      },
      {
        name: 'off-strategy',
        enabled: true,
        strategies: [
          { name: 'default', disabled: true },
          { name: 'userWithId', parameters: { userIds: 'a, b' } },
        ],
      },
      { name: 'custom', enabled: true, strategies: [{ name: 'myCustomStrategy', parameters: {} }] },
      { name: 'parent', enabled: false, strategies: [{ name: 'default' }] },
      {
        name: 'child-of-off',
        enabled: true,
        strategies: [{ name: 'default' }],
        dependencies: [{ feature: 'parent', enabled: false }],
      },
      {
        name: 'bad-values',
        enabled: true,
        strategies: [{ name: 'default', constraints: [{ contextName: 'n', operator: 'NUM_GT', value: 'x' }] }],
      },
    ],
  });

  it('matches IPv6 and IPv4 CIDR ranges in remoteAddress', () => {
    expect(engine.isEnabled('v6', { remoteAddress: '2001:db8::1' })).toBe(true);
    expect(engine.isEnabled('v6', { remoteAddress: '10.1.2.3' })).toBe(true);
    expect(engine.isEnabled('v6', { remoteAddress: '192.168.0.1' })).toBe(false);
    expect(engine.isEnabled('v6', { remoteAddress: 'not-an-ip' })).toBe(false);
  });

  it('skips disabled strategies, answers false for unknown ones and never throws on junk', () => {
    expect(engine.isEnabled('off-strategy', {})).toBe(false);
    expect(engine.isEnabled('off-strategy', { userId: 'b' })).toBe(true);
    expect(engine.isEnabled('custom', { userId: 'b' })).toBe(false);
    expect(engine.isEnabled('bad-values', { properties: { n: '5' } })).toBe(false);
    expect(engine.isEnabled('child-of-off', {})).toBe(true);
  });
});

describe('murmur3 agrees with the SDK hash library', () => {
  it('on random ASCII and non-ASCII keys and seeds', async () => {
    const { default: reference } = await import('murmurhash3js');
    const { murmur3 } = await import('./hashing.ts');
    const alphabet = 'abcXYZ019:-_.@ øæå用户ü€😀';
    for (let round = 0; round < 5000; round += 1) {
      let key = '';
      const length = Math.floor(Math.random() * 40);
      for (let index = 0; index < length; index += 1) key += alphabet[Math.floor(Math.random() * alphabet.length)];
      const seed = round % 3 === 0 ? 0 : round % 3 === 1 ? 86028157 : Math.floor(Math.random() * 2 ** 31);
      expect(murmur3(key, seed), JSON.stringify([key, seed])).toBe(reference.x86.hash32(key, seed));
    }
  });
});

describe('hashWithPrefix', () => {
  it('equals hashing prefix and key together, for every prefix and key length', async () => {
    const { murmur3, hashWithPrefix, HashPrefix, HashKey } = await import('./hashing.ts');
    const alphabet = 'abcXYZ019:-_.øæ用';
    const text = (length: number) =>
      Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
    for (let prefixLength = 0; prefixLength < 12; prefixLength += 1) {
      for (let suffixLength = 0; suffixLength < 12; suffixLength += 1) {
        const prefix = text(prefixLength);
        const suffix = text(suffixLength);
        for (const seed of [0, 86028157])
          expect(hashWithPrefix(new HashPrefix(prefix, seed), new HashKey(suffix))).toBe(
            murmur3(prefix + suffix, seed),
          );
      }
    }
  });
});

describe('bucketWithPrefix', () => {
  it('is murmur3 % n + 1 for small and large n, hashes above 2^31 included', async () => {
    const { murmur3, bucketWithPrefix, HashPrefix, HashKey } = await import('./hashing.ts');
    let aboveSignedRange = 0;
    for (let round = 0; round < 3000; round += 1) {
      const prefix = `flag-${round % 37}:`;
      const key = `user-${round * 7919}`;
      const hash = murmur3(prefix + key, 0);
      if (hash >= 2 ** 31) aboveSignedRange += 1;
      for (const n of [1, 3, 100, 1000, 10_007, 65_537, 2 ** 31 - 1, 2 ** 32 - 5]) {
        expect(bucketWithPrefix(new HashPrefix(prefix, 0), new HashKey(key), n), `${prefix}${key} % ${n}`).toBe(
          (hash % n) + 1,
        );
      }
    }
    expect(aboveSignedRange).toBeGreaterThan(1000);
  });
});

describe('percentBucketOf', () => {
  it('is the unsigned hash % 100 + 1, at the ends of the range and for random hashes', async () => {
    const { percentBucketOf } = await import('./hashing.ts');
    const ends = [0, 1, 99, 100, 65_535, 65_536, 2 ** 31 - 1, -(2 ** 31), -1, -100, -65_536];
    const random = Array.from({ length: 20_000 }, (_, index) => Math.imul(index + 1, 0x9e3779b1) ^ (index << 7));
    for (const signed of [...ends, ...random])
      expect(percentBucketOf(signed), String(signed)).toBe(((signed >>> 0) % 100) + 1);
  });
});
