import { describe, expect, it } from 'vitest';
import { scopeSummary } from './agent-scopes.ts';

describe('agent scopes in words', () => {
  it('says read only unless the agent may change things', () => {
    expect(scopeSummary(['mcp:read'])).toBe('Read only');
    expect(scopeSummary(['mcp:read', 'mcp:write'])).toBe('Read and change');
    expect(scopeSummary(['mcp:write'])).toBe('Read and change');
  });
});
