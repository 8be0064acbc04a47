import murmurhash3 from 'murmurhash3js';

/**
 * Unleash's bucket: murmur3_x86_32("<groupId>:<id>", seed) % n + 1, in 1..n. The hash is the one the Node SDK
 * uses (murmurhash3js), which reads the low byte of each UTF-16 code unit; keeping it means non-ASCII ids land in
 * the same bucket as with the SDK.
 */
export function normalizedValue(id: string, groupId: string, normalizer = 100, seed = 0): number {
  return (murmurhash3.x86.hash32(`${groupId}:${id}`, seed) % normalizer) + 1;
}

export const VARIANT_SEED = 86028157;
