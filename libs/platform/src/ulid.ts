import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID (26 characters of Crockford's base 32: 48 bits of milliseconds, then 80 random bits), the id Unleash gives
 * release templates, milestones and impact metric charts; ids made later sort after earlier ones.
 */
export function ulid(now = Date.now()): string {
  let time = '';
  let rest = now;
  for (let index = 0; index < 10; index += 1) {
    time = ALPHABET[rest % 32]! + time;
    rest = Math.floor(rest / 32);
  }
  const random = randomBytes(10);
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  let tail = '';
  for (let index = 0; index < 16; index += 1) {
    tail = ALPHABET[Number(bits & 31n)]! + tail;
    bits >>= 5n;
  }
  return time + tail;
}

export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
