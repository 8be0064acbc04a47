import { describe, expect, it } from 'vitest';
import { holds } from './session.ts';

describe('holds', () => {
  it('reads grants as admin-api does: instance-wide, per project (or every one), per environment', () => {
    expect(holds([{ permission: 'ADMIN' }], 'UPDATE_FEATURE', { project: 'p' })).toBe(true);
    expect(holds([{ permission: 'UPDATE_FEATURE', project: '*' }], 'UPDATE_FEATURE', { project: 'p' })).toBe(true);
    expect(holds([{ permission: 'UPDATE_FEATURE', project: 'q' }], 'UPDATE_FEATURE', { project: 'p' })).toBe(false);
    const toggler = [{ permission: 'UPDATE_FEATURE_ENVIRONMENT', project: 'p', environment: 'development' }];
    expect(holds(toggler, 'UPDATE_FEATURE_ENVIRONMENT', { project: 'p', environment: 'development' })).toBe(true);
    expect(holds(toggler, 'UPDATE_FEATURE_ENVIRONMENT', { project: 'p', environment: 'production' })).toBe(false);
    expect(holds([{ permission: 'READ' }], 'UPDATE_FEATURE', { project: 'p' })).toBe(false);
  });
});
