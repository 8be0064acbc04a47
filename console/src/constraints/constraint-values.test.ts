import { describe, expect, it } from 'vitest';
import {
  addValues,
  constraintProblem,
  describeConstraint,
  parseValues,
  singleValueProblem,
  toWire,
  valueKind,
  withOperator,
} from './constraint-values.ts';

describe('parseValues', () => {
  it('splits pasted text at line breaks, commas and tabs, trims and keeps each value once', () => {
    expect(parseValues('a, b\nc\r\nd\te,,a\n  \n')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('reads hundreds of values pasted at once', () => {
    const pasted = Array.from({ length: 500 }, (_, index) => `user-${index}`).join('\n');
    expect(parseValues(pasted)).toHaveLength(500);
  });
  it('gives nothing for blank text', () => {
    expect(parseValues(' \n , ')).toEqual([]);
  });
});

describe('addValues', () => {
  it('adds only what is new', () => {
    expect(addValues(['a'], 'a,b')).toEqual({ values: ['a', 'b'], added: 1 });
  });
  it('leaves out values longer than the API accepts and says so', () => {
    const result = addValues([], `ok,${'x'.repeat(101)}`);
    expect(result.values).toEqual(['ok']);
    expect(result.problem).toMatch(/longer than 100/);
  });
  it('stops at 1000 values', () => {
    const result = addValues([], Array.from({ length: 1200 }, (_, index) => String(index)).join(','));
    expect(result.values).toHaveLength(1000);
    expect(result.added).toBe(1000);
    expect(result.problem).toMatch(/at most 1000/);
  });
});

describe('single values', () => {
  it('knows each operator kind', () => {
    expect(
      ['IN', 'STR_CONTAINS', 'NUM_GT', 'DATE_AFTER', 'SEMVER_EQ', 'SEMVER_LTE', 'REGEX', 'IN_CIDR'].map(valueKind),
    ).toEqual(['list', 'list', 'number', 'date', 'semver', 'semver', 'pattern', 'list']);
  });
  it('refuses values that do not fit the operator', () => {
    expect(singleValueProblem('NUM_EQ', '4.5')).toBeUndefined();
    expect(singleValueProblem('NUM_EQ', 'four')).toMatch(/not a number/);
    expect(singleValueProblem('DATE_AFTER', '2026-01-01T10:00:00.000Z')).toBeUndefined();
    expect(singleValueProblem('DATE_AFTER', 'tomorrow')).toMatch(/not a date/);
    expect(singleValueProblem('SEMVER_GT', '1.2.3-beta.1')).toBeUndefined();
    expect(singleValueProblem('SEMVER_GT', 'v1.2')).toMatch(/semantic version/);
    expect(singleValueProblem('NUM_LT', '  ')).toBe('Enter a value');
  });
  it('checks a whole constraint before it is sent', () => {
    expect(constraintProblem({ contextName: '', operator: 'IN', values: ['a'] })).toBe('Choose a context field');
    expect(constraintProblem({ contextName: 'userId', operator: 'IN', values: [] })).toBe('Add at least one value');
    expect(constraintProblem({ contextName: 'userId', operator: 'IN', values: ['a'] })).toBeUndefined();
  });
});

describe('changing the operator', () => {
  it('carries the first value from a list to a single value and back', () => {
    const single = withOperator({ contextName: 'version', operator: 'IN', values: ['1.0.0', '2.0.0'] }, 'SEMVER_GT');
    expect(single).toMatchObject({ operator: 'SEMVER_GT', value: '1.0.0', values: [] });
    expect(withOperator(single, 'NOT_IN')).toMatchObject({ operator: 'NOT_IN', values: ['1.0.0'] });
  });
  it('clears a value of another kind and case-insensitivity where it does not apply', () => {
    expect(withOperator({ contextName: 'n', operator: 'NUM_EQ', value: '4' }, 'DATE_AFTER').value).toBe('');
    expect(
      withOperator({ contextName: 'n', operator: 'STR_CONTAINS', caseInsensitive: true, values: ['a'] }, 'IN')
        .caseInsensitive,
    ).toBe(false);
  });
  it('sends values for lists and a trimmed value otherwise', () => {
    expect(toWire({ contextName: 'a', operator: 'IN', value: 'x', values: ['b'] })).toEqual({
      contextName: 'a',
      operator: 'IN',
      values: ['b'],
    });
    expect(toWire({ contextName: 'a', operator: 'NUM_GT', value: ' 3 ', values: [] })).toEqual({
      contextName: 'a',
      operator: 'NUM_GT',
      value: '3',
    });
  });
  it('reads a constraint in one line', () => {
    expect(
      describeConstraint({ contextName: 'userId', operator: 'IN', inverted: true, values: ['a', 'b', 'c', 'd', 'e'] }),
    ).toBe('userId NOT is one of a, b, c and 2 more');
  });
});
