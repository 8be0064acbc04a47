import { describe, expect, it } from 'vitest';
import type { ExplainedFeature } from '@bunting/contracts';
import { viaLabel } from '../server.ts';
import { spellings } from './cleanup-tools.ts';
import { reasonOf } from './evaluate-tools.ts';
import { spreadWeights } from './flag-tools.ts';

const strategy = (overrides: Partial<ExplainedFeature['strategies']['data'][number]>) => ({
  id: 's1',
  name: 'flexibleRollout',
  disabled: false,
  parameters: {},
  constraints: [],
  segments: [],
  result: { evaluationStatus: 'complete' as const, enabled: false },
  ...overrides,
});
const feature = (overrides: Partial<ExplainedFeature>): ExplainedFeature => ({
  isEnabledInCurrentEnvironment: true,
  isEnabled: false,
  hasUnsatisfiedDependency: false,
  variant: { name: 'disabled', enabled: false, feature_enabled: false },
  strategies: { result: false, data: [] },
  ...overrides,
});

describe('what the tools work out themselves', () => {
  it('spreads what weighted variants leave over the others, to 1000', () => {
    expect(
      spreadWeights([{ name: 'a' }, { name: 'b' }, { name: 'c' }], 'userId').map((variant) => variant.weight),
    ).toEqual([334, 333, 333]);
    const mixed = spreadWeights([{ name: 'a', weight: 700 }, { name: 'b' }], 'default');
    expect(mixed).toEqual([
      { name: 'a', weight: 700, weightType: 'fix', stickiness: 'default' },
      { name: 'b', weight: 300, weightType: 'variable', stickiness: 'default' },
    ]);
    expect(spreadWeights([], 'default')).toEqual([]);
  });

  it('names the ways code spells a flag', () => {
    expect(spellings('new-checkout.flow')).toEqual(['new-checkout.flow', 'NEW_CHECKOUT_FLOW', 'newCheckoutFlow']);
    expect(spellings('simple')).toEqual(['simple', 'SIMPLE']);
  });

  it('says why a context gets what it gets', () => {
    expect(reasonOf(feature({ isEnabledInCurrentEnvironment: false }), 'production')).toBe(
      'It is off in "production".',
    );
    expect(reasonOf(feature({}), 'dev')).toMatch(/no strategy there/);
    expect(
      reasonOf(
        feature({
          strategies: {
            result: true,
            data: [strategy({ title: 'Beta', result: { evaluationStatus: 'complete', enabled: true } })],
          },
        }),
        'dev',
      ),
    ).toBe('Strategy "Beta" (flexibleRollout) [s1] matched.');
    expect(
      reasonOf(
        feature({
          strategies: {
            result: false,
            data: [
              strategy({ constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'], result: false }] }),
            ],
          },
        }),
        'dev',
      ),
    ).toBe('No strategy matched: flexibleRollout [s1]: constraint region IN failed.');
    expect(reasonOf(feature({ strategies: { result: false, data: [strategy({})] } }), 'dev')).toMatch(
      /outside its rollout/,
    );
  });

  it('labels a client for the event log, bounded', () => {
    expect(viaLabel({ name: 'claude-code', version: '2.1.0' })).toBe('MCP: claude-code 2.1.0');
    expect(viaLabel(undefined)).toBe('MCP: unknown client');
    expect(viaLabel({ name: 'x'.repeat(500) }).length).toBe(200);
  });
});
