import { CONSTRAINT_OPERATORS, SINGLE_VALUE_OPERATORS, type ConstraintInput } from '@bunting/contracts';

export type Operator = (typeof CONSTRAINT_OPERATORS)[number];

/** What a constraint's value is: a list of strings, or one number, date or semantic version. */
export type ValueKind = 'list' | 'number' | 'date' | 'semver' | 'pattern';

export function valueKind(operator: string): ValueKind {
  if (!SINGLE_VALUE_OPERATORS.has(operator)) return 'list';
  if (operator.startsWith('NUM_')) return 'number';
  if (operator.startsWith('DATE_')) return 'date';
  if (operator === 'REGEX') return 'pattern';
  return 'semver';
}

/** Case-insensitive matching applies to the string operators and REGEX only, as in Unleash. */
export const allowsCaseInsensitive = (operator: string) => operator.startsWith('STR_') || operator === 'REGEX';

export const OPERATOR_LABELS: Record<Operator, string> = {
  IN: 'is one of',
  NOT_IN: 'is not one of',
  STR_CONTAINS: 'contains',
  STR_STARTS_WITH: 'starts with',
  STR_ENDS_WITH: 'ends with',
  NUM_EQ: '= (number)',
  NUM_GT: '> (number)',
  NUM_GTE: '≥ (number)',
  NUM_LT: '< (number)',
  NUM_LTE: '≤ (number)',
  DATE_AFTER: 'is after (date)',
  DATE_BEFORE: 'is before (date)',
  SEMVER_EQ: '= (version)',
  SEMVER_GT: '> (version)',
  SEMVER_LT: '< (version)',
  SEMVER_GTE: '≥ (version)',
  SEMVER_LTE: '≤ (version)',
  REGEX: 'matches (regular expression)',
  IN_CIDR: 'is in IP range',
};

export const OPERATORS: readonly Operator[] = CONSTRAINT_OPERATORS;

/** The API's limits on a constraint's values. */
export const MAX_VALUES = 1000;
export const MAX_VALUE_LENGTH = 100;

/**
 * Values typed or pasted at once: split at line breaks, commas and tabs (a column copied from a spreadsheet, a
 * comma-separated list from a chat), trimmed, empty ones dropped, each kept once in the order first seen.
 */
export function parseValues(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\n\r,\t]+/)) {
    const value = part.trim();
    if (value.length > 0) seen.add(value);
  }
  return [...seen];
}

/** Adds pasted values to a list: what was new, and why any could not be added. */
export function addValues(
  existing: readonly string[],
  text: string,
): { values: string[]; added: number; problem?: string } {
  const values = [...existing];
  const present = new Set(existing);
  let added = 0;
  const tooLong: string[] = [];
  for (const value of parseValues(text)) {
    if (present.has(value)) continue;
    if (value.length > MAX_VALUE_LENGTH) {
      tooLong.push(value);
      continue;
    }
    present.add(value);
    values.push(value);
    added += 1;
  }
  if (tooLong.length > 0)
    return {
      values,
      added,
      problem: `${tooLong.length} value${tooLong.length === 1 ? ' is' : 's are'} longer than ${MAX_VALUE_LENGTH} characters and were left out`,
    };
  if (values.length > MAX_VALUES)
    return {
      values: values.slice(0, MAX_VALUES),
      added: added - (values.length - MAX_VALUES),
      problem: `A constraint holds at most ${MAX_VALUES} values; the rest were left out`,
    };
  return { values, added };
}

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** Why a single value does not fit its operator, or undefined when it does (the server checks the same on save). */
export function singleValueProblem(operator: string, value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return 'Enter a value';
  // RE2 (what the SDKs run) is not JavaScript's syntax: the server checks the pattern and says why on save.
  if (valueKind(operator) === 'pattern') return undefined;
  switch (valueKind(operator)) {
    case 'number':
      return Number.isNaN(Number(trimmed)) ? `"${trimmed}" is not a number` : undefined;
    case 'date':
      return Number.isNaN(Date.parse(trimmed)) ? `"${trimmed}" is not a date` : undefined;
    case 'semver':
      return SEMVER.test(trimmed) ? undefined : `"${trimmed}" is not a semantic version such as 1.2.3`;
    default:
      return undefined;
  }
}

/** What is wrong with a constraint before it is sent, or undefined. */
export function constraintProblem(constraint: ConstraintInput): string | undefined {
  if (!constraint.contextName) return 'Choose a context field';
  if (valueKind(constraint.operator) === 'list')
    return (constraint.values ?? []).length === 0 ? 'Add at least one value' : undefined;
  return singleValueProblem(constraint.operator, constraint.value ?? '');
}

/**
 * The constraint after its operator changed: a list keeps its values; moving between a list and a single value
 * carries the first value across, so nothing typed is lost silently; case-insensitivity only where it applies.
 */
export function withOperator(constraint: ConstraintInput, operator: Operator): ConstraintInput {
  const from = valueKind(constraint.operator);
  const to = valueKind(operator);
  const next: ConstraintInput = {
    ...constraint,
    operator,
    caseInsensitive: allowsCaseInsensitive(operator) ? (constraint.caseInsensitive ?? false) : false,
  };
  if (from === 'list' && to !== 'list') {
    next.value = constraint.values?.[0] ?? '';
    next.values = [];
  } else if (from !== 'list' && to === 'list') {
    next.values = constraint.value ? [constraint.value] : [];
    delete next.value;
  } else if (from !== to) {
    // A number is not a date: a value of another kind would only be refused.
    next.value = '';
  }
  return next;
}

/** A constraint as the API wants it: a list operator sends values, a single one sends value. */
export function toWire(constraint: ConstraintInput): ConstraintInput {
  const { value, values, ...rest } = constraint;
  const kind = valueKind(constraint.operator);
  return kind === 'list'
    ? { ...rest, values: values ?? [] }
    : { ...rest, value: kind === 'pattern' ? (value ?? '') : (value ?? '').trim() };
}

/** A one-line reading of a constraint, for summaries: `userId is one of 3 values`. */
export function describeConstraint(constraint: {
  contextName: string;
  operator: string;
  inverted?: boolean | undefined;
  value?: string | undefined;
  values?: string[] | undefined;
}): string {
  const label = OPERATOR_LABELS[constraint.operator as Operator] ?? constraint.operator;
  const values = valueKind(constraint.operator) === 'list' ? (constraint.values ?? []) : [constraint.value ?? ''];
  const shown =
    values.length <= 3 ? values.join(', ') : `${values.slice(0, 3).join(', ')} and ${values.length - 3} more`;
  return `${constraint.contextName} ${constraint.inverted ? 'NOT ' : ''}${label} ${shown}`;
}
