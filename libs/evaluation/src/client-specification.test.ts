import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDelta, compileEngine, type DeltaEvent } from './index.ts';

/** Every spec file, test and variant test of @unleash/client-specification, none skipped. */
const require = createRequire(import.meta.url);
const root = join(dirname(require.resolve('@unleash/client-specification/package.json')), 'specifications');
const files: string[] = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8'));

type Spec = {
  name: string;
  state: { features?: any[]; segments?: any[]; events?: DeltaEvent[] };
  tests?: { description: string; context: any; toggleName: string; expectedResult: boolean }[];
  variantTests?: { description: string; context: any; toggleName: string; expectedResult: any }[];
};

describe.each(files)('client specification %s', (file) => {
  const spec: Spec = JSON.parse(readFileSync(join(root, file), 'utf8'));
  const state = spec.state.events
    ? applyDelta(spec.state.events)
    : { features: spec.state.features ?? [], segments: spec.state.segments ?? [] };
  const engine = compileEngine(state);

  it('has tests', () => {
    expect((spec.tests?.length ?? 0) + (spec.variantTests?.length ?? 0)).toBeGreaterThan(0);
  });

  for (const test of spec.tests ?? []) {
    it(`${test.description} (${test.toggleName})`, () => {
      expect(engine.isEnabled(test.toggleName, test.context)).toBe(test.expectedResult);
    });
  }

  for (const test of spec.variantTests ?? []) {
    it(`variant: ${test.description} (${test.toggleName})`, () => {
      const expected = { ...test.expectedResult };
      const actual: Record<string, unknown> = { ...engine.getVariant(test.toggleName, test.context) };
      if (!('feature_enabled' in expected)) delete actual.feature_enabled;
      if (expected.featureEnabled !== undefined) {
        actual.featureEnabled = actual.feature_enabled;
      }
      expect(actual).toEqual(expected);
    });
  }
});
