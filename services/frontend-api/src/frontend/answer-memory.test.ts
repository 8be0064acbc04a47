import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';

// The module starts its release timer when loaded: fake timers first, then the module.
vi.useFakeTimers();
const { answerMemory } = await import('./answer-memory.ts');
afterAll(() => vi.useRealTimers());

/** What answerMemory needs of a reply: the raw response's 'finish'. */
function reply(): { reply: FastifyReply; finish: () => void } {
  const raw = new EventEmitter();
  return { reply: { raw } as unknown as FastifyReply, finish: () => raw.emit('finish') };
}

const LARGE = 700_000;

describe('answer memory for large answers', () => {
  it('uses the buffer of a finished answer again, and hands kept buffers back once none is taken for a while', () => {
    const first = reply();
    const buffer = answerMemory(LARGE, first.reply);
    expect(buffer.length).toBeGreaterThanOrEqual(LARGE);
    // Still being written: another answer gets other memory.
    const second = reply();
    const other = answerMemory(LARGE, second.reply);
    expect(other).not.toBe(buffer);
    first.finish();
    second.finish();

    const third = reply();
    const reused = answerMemory(LARGE, third.reply);
    expect([buffer, other]).toContain(reused);
    third.finish();
    // Taken within the last interval: nothing is released at its end.
    vi.advanceTimersByTime(10_000);
    expect(buffer.length + other.length).toBeGreaterThanOrEqual(2 * LARGE);

    // A whole interval without a large answer: every kept buffer is detached, its memory freed.
    vi.advanceTimersByTime(10_000);
    expect(buffer.length).toBe(0);
    expect(other.length).toBe(0);
    const fresh = answerMemory(LARGE, reply().reply);
    expect(fresh.length).toBeGreaterThanOrEqual(LARGE);
  });
});
