import semver from 'semver';
import { addressRangeProblem, regexProblem } from '@bunting/evaluation';
import { SINGLE_VALUE_OPERATORS, type Constraint, type ConstraintInput } from '@bunting/contracts';
import { ValidationError, type Queryable } from '@bunting/platform';
import { referenceStore } from './reference-store.ts';

const MULTI_VALUE_OPERATORS = new Set(['IN', 'NOT_IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS', 'IN_CIDR']);

/** Checks one constraint as Unleash does on write and returns it in stored form, defaults filled in. */
export function normalizeConstraint(input: ConstraintInput, path: string): Constraint {
  const base = {
    contextName: input.contextName,
    operator: input.operator,
    caseInsensitive: input.caseInsensitive ?? false,
    inverted: input.inverted ?? false,
  };
  if (MULTI_VALUE_OPERATORS.has(input.operator)) {
    // As Unleash: a list operator reads `values` only; a single `value` beside it is no value for it.
    const values = (input.values ?? []).map((value) => value.trim()).filter((value) => value.length > 0);
    if (values.length === 0)
      throw ValidationError.field(`${path}.values`, `the ${input.operator} operator needs at least one value`);
    if (input.operator === 'IN_CIDR') {
      const problem = values.map(addressRangeProblem).find((text) => text !== undefined);
      if (problem) throw ValidationError.field(`${path}.values`, problem);
    }
    return { ...base, values };
  }
  if (!SINGLE_VALUE_OPERATORS.has(input.operator))
    throw ValidationError.field(`${path}.operator`, `unknown operator ${input.operator}`);
  const given = input.value ?? input.values?.[0] ?? '';
  // A pattern is kept as written (its spaces may matter); other single values are trimmed.
  const value = input.operator === 'REGEX' ? given : given.trim();
  if (value.trim() === '') throw ValidationError.field(`${path}.value`, `the ${input.operator} operator needs a value`);
  if (input.operator.startsWith('NUM_') && Number.isNaN(Number(value))) {
    throw ValidationError.field(`${path}.value`, `"${value}" is not a number`);
  }
  if (input.operator.startsWith('DATE_') && Number.isNaN(Date.parse(value))) {
    throw ValidationError.field(`${path}.value`, `"${value}" is not a valid date`);
  }
  if (input.operator.startsWith('SEMVER_') && (value.startsWith('v') || semver.valid(value) === null)) {
    throw ValidationError.field(`${path}.value`, `"${value}" is not a valid semantic version`);
  }
  if (input.operator === 'REGEX') {
    const problem = regexProblem(value, base.caseInsensitive);
    if (problem) throw ValidationError.field(`${path}.value`, problem);
  }
  return { ...base, value, values: [] };
}

/** Normalizes a list of constraints and checks their values against the context fields' legal values. */
export async function normalizeConstraints(
  db: Queryable,
  inputs: readonly ConstraintInput[] | undefined,
  path: string,
): Promise<Constraint[]> {
  const constraints = (inputs ?? []).map((input, index) => normalizeConstraint(input, `${path}[${index}]`));
  const names = [...new Set(constraints.map((constraint) => constraint.contextName))];
  if (names.length === 0) return constraints;
  const fields = await referenceStore.legalValues(db, names);
  for (const field of fields) {
    const legal = new Set(field.legalValues.map((legalValue) => legalValue.value));
    constraints.forEach((constraint, index) => {
      if (constraint.contextName !== field.name) return;
      const used =
        constraint.value !== undefined && constraint.value !== '' ? [constraint.value] : (constraint.values ?? []);
      const illegal = used.filter((value) => !legal.has(value));
      if (illegal.length > 0) {
        throw ValidationError.field(
          `${path}[${index}].values`,
          `${illegal.join(', ')} not legal for context field ${field.name}`,
        );
      }
    });
  }
  return constraints;
}
