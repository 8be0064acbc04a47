import { describe, expect, it } from 'vitest';
import { ULID_PATTERN, ulid } from './ulid.ts';

describe('ulid', () => {
  it('is 26 Crockford characters whose first ten spell the time, so later ids sort after', () => {
    const first = ulid(1_700_000_000_000);
    const second = ulid(1_700_000_000_001);
    expect(first).toMatch(ULID_PATTERN);
    expect(first.slice(0, 10)).toBe('01HF7YAT00');
    expect(second > first).toBe(true);
    expect(new Set(Array.from({ length: 1000 }, () => ulid())).size).toBe(1000);
  });
});
