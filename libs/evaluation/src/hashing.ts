/**
 * MurmurHash3 x86 32-bit over the low byte of each UTF-16 code unit, which is what the hash library of the
 * Unleash Node SDK (murmurhash3js) computes. Keeping that reading means non-ASCII ids land in the same bucket
 * as with the SDK. Written with Math.imul: the SDK edge hashes twice per flag per request.
 */
export function murmur3(key: string, seed: number): number {
  const length = key.length;
  const body = length - (length & 3);
  let h1 = seed | 0;
  let index = 0;
  while (index < body) {
    h1 = mixBlock(h1, (key.charCodeAt(index) & 0xff)
      | ((key.charCodeAt(index + 1) & 0xff) << 8)
      | ((key.charCodeAt(index + 2) & 0xff) << 16)
      | ((key.charCodeAt(index + 3) & 0xff) << 24));
    index += 4;
  }
  let tail = 0;
  for (let at = 0; index + at < length; at += 1) tail |= (key.charCodeAt(index + at) & 0xff) << (8 * at);
  return finish(h1, tail, length - index, length);
}

function mixBlock(h1: number, block: number): number {
  let k1 = Math.imul(block, 0xcc9e2d51);
  k1 = (k1 << 15) | (k1 >>> 17);
  k1 = Math.imul(k1, 0x1b873593);
  h1 ^= k1;
  h1 = (h1 << 13) | (h1 >>> 19);
  return (Math.imul(h1, 5) + 0xe6546b64) | 0;
}

function finish(h1: number, tailBlock: number, tailLength: number, length: number): number {
  if (tailLength > 0) {
    let k1 = Math.imul(tailBlock, 0xcc9e2d51);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, 0x1b873593);
    h1 ^= k1;
  }
  h1 ^= length;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 >>> 0;
}

/**
 * murmur3(prefix + suffix, seed) with the prefix's blocks hashed once. A strategy's group id is the same on
 * every request, so only the user's id is hashed per request, and no "<groupId>:<id>" string is built.
 */
export function prefixedMurmur3(prefix: string, seed: number): (suffix: string) => number {
  const pendingLength = prefix.length & 3;
  const full = prefix.length - pendingLength;
  let state = seed | 0;
  for (let index = 0; index < full; index += 4) {
    state = mixBlock(state, (prefix.charCodeAt(index) & 0xff)
      | ((prefix.charCodeAt(index + 1) & 0xff) << 8)
      | ((prefix.charCodeAt(index + 2) & 0xff) << 16)
      | ((prefix.charCodeAt(index + 3) & 0xff) << 24));
  }
  // The prefix's last 0-3 bytes start the next block; the suffix fills it.
  let pending = 0;
  for (let index = 0; index < pendingLength; index += 1) pending |= (prefix.charCodeAt(full + index) & 0xff) << (8 * index);
  const prefixLength = prefix.length;

  // Short ids (the usual case) hash fastest one character at a time into the running block.
  return (suffix) => {
    let h1 = state;
    let block = pending;
    let filled = pendingLength;
    const length = suffix.length;
    for (let index = 0; index < length; index += 1) {
      block |= (suffix.charCodeAt(index) & 0xff) << (8 * filled);
      filled += 1;
      if (filled === 4) {
        h1 = mixBlock(h1, block);
        block = 0;
        filled = 0;
      }
    }
    return finish(h1, block, filled, prefixLength + length);
  };
}

/** Unleash's bucket: murmur3("<groupId>:<id>", seed) % n + 1, in 1..n. */
export function normalizedValue(id: string, groupId: string, normalizer = 100, seed = 0): number {
  return (murmur3(`${groupId}:${id}`, seed) % normalizer) + 1;
}

export const VARIANT_SEED = 86028157;
