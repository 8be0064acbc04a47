import { describe, expect, it } from 'vitest';
import { shouldCollect } from './idle-collection.ts';

const MiB = 1024 * 1024;

describe('collecting when idle', () => {
  it('collects once the process is idle with a heap grown since the last collection', () => {
    expect(shouldCollect(0.01, 129 * MiB, 48 * MiB)).toBe(true);
  });
  it('leaves a busy process to V8', () => {
    expect(shouldCollect(0.4, 129 * MiB, 48 * MiB)).toBe(false);
  });
  it('leaves a heap that grew by less than 16 MiB', () => {
    expect(shouldCollect(0, 60 * MiB, 48 * MiB)).toBe(false);
  });
});
