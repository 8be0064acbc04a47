import type { AgentScope } from '@bunting/contracts';

/** What each scope lets an agent do, in the words the consent page and the lists use. */
export const SCOPE_WORDS: Record<AgentScope, string> = {
  'mcp:read': 'read flags, rollouts and the event log',
  'mcp:write': 'create and change flags, rollouts and change requests',
};

/** A token's scopes as one phrase: read and write together read as "read and change". */
export const scopeSummary = (scopes: readonly AgentScope[]) =>
  scopes.includes('mcp:write') ? 'Read and change' : 'Read only';
