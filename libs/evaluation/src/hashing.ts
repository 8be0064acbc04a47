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
    h1 = mixBlock(h1, blockAt(key, index));
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
  return finishSigned(h1, tailBlock, tailLength, length) >>> 0;
}

function finishSigned(h1: number, tailBlock: number, tailLength: number, length: number): number {
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
  return h1 | 0;
}

function blockAt(text: string, index: number): number {
  return (
    (text.charCodeAt(index) & 0xff) |
    ((text.charCodeAt(index + 1) & 0xff) << 8) |
    ((text.charCodeAt(index + 2) & 0xff) << 16) |
    ((text.charCodeAt(index + 3) & 0xff) << 24)
  );
}

/**
 * The running state of murmur3 after a fixed prefix (a strategy's "<groupId>:" and seed), worked out once
 * when compiling, so that a request only hashes its own id.
 */
export class HashPrefix {
  readonly state: number;
  /** The prefix's last 0-3 bytes, which start the block the key completes. */
  readonly pending: number;
  readonly pendingLength: number;
  readonly length: number;

  constructor(prefix: string, seed: number) {
    const pendingLength = prefix.length & 3;
    const full = prefix.length - pendingLength;
    let state = seed | 0;
    for (let index = 0; index < full; index += 4) state = mixBlock(state, blockAt(prefix, index));
    let pending = 0;
    for (let index = 0; index < pendingLength; index += 1)
      pending |= (prefix.charCodeAt(full + index) & 0xff) << (8 * index);
    this.state = state;
    this.pending = pending;
    this.pendingLength = pendingLength;
    this.length = prefix.length;
  }
}

/**
 * An id's bytes packed into murmur3 blocks for each of the four offsets a prefix can leave them at. Made
 * once per request and id, it turns each of the request's hashes (two per flag) into a few block mixes.
 */
export class HashKey {
  readonly text: string;
  readonly length: number;
  /** For offset a, from a * stride: the first block (bytes at positions a..3), the full blocks, the tail. */
  readonly words: number[];
  readonly stride: number;

  constructor(text: string) {
    const length = text.length;
    const stride = (length >> 2) + 2;
    // A plain array of small integers: cheaper to make per request than a typed array.
    const words: number[] = new Array<number>(stride * 4).fill(0);
    for (let offset = 0; offset < 4; offset += 1) {
      let word = offset * stride;
      let position = offset;
      let block = 0;
      for (let index = 0; index < length; index += 1) {
        block |= (text.charCodeAt(index) & 0xff) << (8 * position);
        position += 1;
        if (position === 4) {
          words[word++] = block;
          block = 0;
          position = 0;
        }
      }
      words[word] = block;
    }
    this.text = text;
    this.length = length;
    this.words = words;
    this.stride = stride;
  }
}

/**
 * Unleash's bucket, murmur3(prefix + key, seed) % n + 1, in 1..n. Taking the remainder here keeps the
 * result a small integer, where returning the unsigned 32-bit hash would box it on every call. The remainder is
 * taken by a division and a floor: `%` of a hash above 2^31 (not a small integer) compiles to a call of C's fmod,
 * which made half of a bucket's cost (24 -> 14 ns a bucket; exact, as the quotient is far from rounding across
 * an integer for any n below 2^32).
 */
export function bucketWithPrefix(prefix: HashPrefix, key: HashKey, n: number): number {
  return bucketOf(signedHash(prefix, key), n);
}

/** murmur3(prefix + key, seed), from the prefix's state and the key's packed blocks. */
export function hashWithPrefix(prefix: HashPrefix, key: HashKey): number {
  return signedHash(prefix, key) >>> 0;
}

/** The hash as a signed 32-bit integer, which stays unboxed when returned. */
function signedHash(prefix: HashPrefix, key: HashKey): number {
  return signedHashAfter(prefix.state, prefix.pending, prefix.pendingLength, prefix.length, key);
}

/**
 * murmur3(prefix + key, seed) as a signed 32-bit integer, from the prefix's four numbers (see HashPrefix) given one
 * by one, so a plan may keep them in its own fields instead of behind another object.
 */
export function signedHashAfter(
  state: number,
  pending: number,
  offset: number,
  prefixLength: number,
  key: HashKey,
): number {
  const total = offset + key.length;
  const blocks = total >> 2;
  const words = key.words;
  const base = offset * key.stride;
  const length = prefixLength + key.length;
  if (blocks === 0) return finishSigned(state, pending | words[base]!, total, length);
  let h1 = mixBlock(state, pending | words[base]!);
  for (let block = 1; block < blocks; block += 1) h1 = mixBlock(h1, words[base + block]!);
  const tailLength = total & 3;
  return finishSigned(h1, tailLength === 0 ? 0 : words[base + blocks]!, tailLength, length);
}

/** Unleash's bucket (hash % n + 1) of a hash from signedHashAfter; see bucketWithPrefix for why not `%`. */
export function bucketOf(signed: number, n: number): number {
  const hash = signed >>> 0;
  return hash - Math.floor(hash / n) * n + 1;
}

/**
 * bucketOf(signed, 100) in integer steps: 2^16 % 100 is 36, so the unsigned hash's remainder is that of
 * high * 36 + low (below 2^22), a small integer whose remainder by a constant V8 takes with a multiplication instead
 * of bucketOf's float division.
 */
export function percentBucketOf(signed: number): number {
  return (((signed >>> 16) * 36 + (signed & 0xffff)) % 100) + 1;
}

/** Unleash's bucket: murmur3("<groupId>:<id>", seed) % n + 1, in 1..n. */
export function normalizedValue(id: string, groupId: string, normalizer = 100, seed = 0): number {
  return (murmur3(`${groupId}:${id}`, seed) % normalizer) + 1;
}

export const VARIANT_SEED = 86028157;
