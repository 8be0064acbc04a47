import { describe, expect, it } from 'vitest';
import { QUIET_CHECKS, idleChecks, shouldCollect } from './idle-collection.ts';

const MiB = 1024 * 1024;

describe('collecting when idle', () => {
  it('collects once the process has been idle for a minute with a heap grown since the last collection', () => {
    expect(shouldCollect(QUIET_CHECKS, 129 * MiB, 48 * MiB)).toBe(true);
  });
  it('leaves a process idle for less than that to V8: a pause between bursts is not quiet', () => {
    expect(shouldCollect(QUIET_CHECKS - 1, 129 * MiB, 48 * MiB)).toBe(false);
  });
  it('counts idle checks in a row, and starts again at a busy one', () => {
    let quiet = 0;
    for (const utilization of [0.01, 0, 0.02]) quiet = idleChecks(quiet, utilization);
    expect(quiet).toBe(3);
    expect(idleChecks(quiet, 0.4)).toBe(0);
  });
  it('leaves a heap that grew by less than 16 MiB', () => {
    expect(shouldCollect(QUIET_CHECKS, 60 * MiB, 48 * MiB)).toBe(false);
  });
});
