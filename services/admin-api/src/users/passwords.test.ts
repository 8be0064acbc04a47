import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_HASHING,
  hashPassword,
  passwordMatches,
  readPasswordHashing,
  spendPasswordCheck,
} from './passwords.ts';

describe('PASSWORD_HASHING', () => {
  it("is argon2's default unless set, and reads the names a stored hash gives its cost", () => {
    expect(readPasswordHashing(undefined)).toEqual({ memoryKib: 65_536, passes: 3, lanes: 4 });
    expect(readPasswordHashing('')).toEqual(DEFAULT_PASSWORD_HASHING);
    expect(readPasswordHashing('m=19456,t=2,p=1')).toEqual({ memoryKib: 19_456, passes: 2, lanes: 1 });
    expect(readPasswordHashing(' p=2, m=47104 ,t=1')).toEqual({ memoryKib: 47_104, passes: 1, lanes: 2 });
  });

  it("refuses what is not m, t and p as whole numbers, and any cost below OWASP's least", () => {
    for (const bad of [
      'fast',
      'm=19456,t=2',
      'm=19456,t=2,p=1,x=3',
      'm=19456,t=2.5,p=1',
      'm=-1,t=2,p=1',
      'm=a,t=2,p=1',
    ])
      expect(() => readPasswordHashing(bad), bad).toThrow(/PASSWORD_HASHING must read/);
    for (const cheap of ['m=19456,t=1,p=1', 'm=4096,t=3,p=1', 'm=65536,t=3,p=32'])
      expect(() => readPasswordHashing(cheap), cheap).toThrow(/below OWASP's least/);
  });
});

describe('password hashes', () => {
  it('are argon2id at the cost set, and keep matching after the setting changes', async () => {
    const cheap = readPasswordHashing('m=19456,t=2,p=1');
    const hashed = await hashPassword('correct horse', cheap);
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const strong = await hashPassword('correct horse', DEFAULT_PASSWORD_HASHING);
    expect(strong).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    // A stored hash names its own cost: both match whatever new hashes are made with now.
    expect([await passwordMatches(hashed, 'correct horse'), await passwordMatches(strong, 'correct horse')]).toEqual([
      true,
      true,
    ]);
    expect(await passwordMatches(hashed, 'wrong horse')).toBe(false);
    expect(await passwordMatches(null, 'correct horse')).toBe(false);
    expect(await passwordMatches('not a hash', 'correct horse')).toBe(false);
  });

  it('spend a check at the cost set when the user does not exist', async () => {
    await expect(spendPasswordCheck('anything', readPasswordHashing('m=19456,t=2,p=1'))).resolves.toBeUndefined();
  });
});
