import { describe, expect, it } from 'vitest';
import { scopeFromSecret } from './edge-tokens.ts';

describe("a token's scope read from its text", () => {
  it("reads Unleash's project:environment.secret form", () => {
    expect(scopeFromSecret('*:production.abc')).toEqual({ environment: 'production', projects: ['*'] });
    expect(scopeFromSecret('web:development.abc')).toEqual({ environment: 'development', projects: ['web'] });
    expect(scopeFromSecret('[]:development.abc')).toEqual({ environment: 'development', projects: [] });
    expect(scopeFromSecret('no-scope-here')).toBeUndefined();
  });
});
