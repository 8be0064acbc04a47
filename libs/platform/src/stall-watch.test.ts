import { describe, expect, it } from 'vitest';
import { isBehind } from './stall-watch.ts';

describe('a stream reader behind its consumer', () => {
  it('has messages waiting, or was delivered messages it never handled', () => {
    expect(isBehind({ waiting: 3, deliveredCount: 0, deliveredUpTo: 9 }, 9)).toBe(true);
    expect(isBehind({ waiting: 0, deliveredCount: 4, deliveredUpTo: 14 }, 10)).toBe(true);
    expect(isBehind({ waiting: 0, deliveredCount: 4, deliveredUpTo: 14 }, 14)).toBe(false);
    // A consumer that delivered nothing yet starts after what was handled (its start may sit past other subjects).
    expect(isBehind({ waiting: 0, deliveredCount: 0, deliveredUpTo: 20 }, 14)).toBe(false);
  });
});
