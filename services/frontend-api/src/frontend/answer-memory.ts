import type { FastifyReply } from 'fastify';
import { afterEachBurst } from '../turn-end-replies.ts';

const SLAB_SIZE = 1 << 20;
/** Answers above this have buffers of their own: one would take an eighth of a slab. */
const LARGEST_SLAB_PIECE = SLAB_SIZE / 8;
/** Large answers' buffers are sized in steps of this, so answers of about the same size share them. */
const LARGE_STEP = 64 * 1024;
/** At most this much memory is kept in large buffers waiting to be used again. */
const MOST_KEPT = 64 * 1024 * 1024;

/** Kept buffers none of which was taken again for this long are handed back to the system. */
const IDLE_RELEASE_MS = 10_000;

let slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
let slabOffset = 0;
const kept: Buffer[] = [];
let keptBytes = 0;
let keptTaken = false;

// After a burst of large answers (50 connections at 10,000 flags kept about 38 MiB), the buffers it left would stay
// resident for good: a collection would not free them, as they are still kept. Detaching one frees its memory at once.
setInterval(() => {
  if (!keptTaken) {
    for (const buffer of kept) (buffer.buffer as ArrayBuffer).transfer(0);
    kept.length = 0;
    keptBytes = 0;
  }
  keptTaken = false;
}, IDLE_RELEASE_MS).unref();

// Every answer cut from the slab is in the burst just sent: when all of them are with the kernel, the slab is free.
afterEachBurst((handedOver) => {
  if (!handedOver) slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
  slabOffset = 0;
});

function keptBuffer(length: number): Buffer | undefined {
  for (let index = 0; index < kept.length; index += 1) {
    const buffer = kept[index]!;
    if (buffer.length >= length && buffer.length <= length * 2) {
      kept[index] = kept[kept.length - 1]!;
      kept.pop();
      keptBytes -= buffer.length;
      keptTaken = true;
      return buffer;
    }
  }
  return undefined;
}

/**
 * Memory for an answer of at most `length` bytes, used again once the answer is written, so that making answers
 * does not make V8 collect the heap: fresh memory for every answer counted as external memory and set off a full
 * collection (7-8 ms with 200 flags, far more with 10,000) every few hundred milliseconds under load.
 * Small answers are cut from a slab that is used again from its start once a burst of answers (see
 * turn-end-replies.ts) is with the kernel, or left to a write still using it; large ones get a buffer of their own
 * that is kept for another answer once this one's response has finished (all of it handed to the kernel).
 * Call `settle` with the bytes written before taking memory for another answer.
 */
export function answerMemory(length: number, reply: FastifyReply): Buffer {
  if (length > LARGEST_SLAB_PIECE) {
    const buffer = keptBuffer(length) ?? Buffer.allocUnsafeSlow(Math.ceil(length / LARGE_STEP) * LARGE_STEP);
    // Not on 'close' without 'finish': an aborted write may still be reading from it.
    reply.raw.once('finish', () => {
      if (keptBytes + buffer.length > MOST_KEPT) return;
      kept.push(buffer);
      keptBytes += buffer.length;
    });
    return buffer;
  }
  if (slabOffset + length > SLAB_SIZE) {
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
    slabOffset = 0;
  }
  return slab.subarray(slabOffset, slabOffset + length);
}

/** Marks the first `used` bytes of memory from `answerMemory` as taken by its answer. */
export function settle(memory: Buffer, used: number): void {
  if (memory.buffer === slab.buffer) slabOffset += (used + 7) & ~7;
}

const COMMA = 0x2c;

/**
 * `open`, `count` parts separated by commas, then `close`, in one buffer from answerMemory: the parts at the
 * first `count` indexes in `picked`, or the first `count` parts when it is null. `length` is at least the bytes that
 * makes.
 */
export function joinAnswer(
  open: Buffer,
  parts: readonly (Buffer | undefined)[],
  picked: Int32Array | null,
  count: number,
  close: Buffer,
  length: number,
  reply: FastifyReply,
): Buffer {
  const out = answerMemory(length, reply);
  out.set(open, 0);
  let position = open.length;
  for (let index = 0; index < count; index += 1) {
    if (index > 0) out[position++] = COMMA;
    const part = parts[picked === null ? index : picked[index]!]!;
    out.set(part, position);
    position += part.length;
  }
  out.set(close, position);
  position += close.length;
  settle(out, position);
  return out.subarray(0, position);
}
