import { z } from 'zod';

/** The operators the spec lets a client write. The evaluation engine also understands the SDK-only ones. */
export const CONSTRAINT_OPERATORS = [
  'NOT_IN', 'IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS',
  'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE',
  'DATE_AFTER', 'DATE_BEFORE', 'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT',
] as const;
export const ConstraintOperator = z.enum(CONSTRAINT_OPERATORS);
export type ConstraintOperator = z.infer<typeof ConstraintOperator>;

export const SINGLE_VALUE_OPERATORS: ReadonlySet<string> = new Set([
  'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE',
  'DATE_AFTER', 'DATE_BEFORE', 'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT',
]);

const ConstraintValue = z.string().max(100);

/** A constraint as a client writes it. Operator-specific rules are checked by `constraintProblems`. */
export const ConstraintInput = z.object({
  contextName: z.string().min(1).max(100),
  operator: ConstraintOperator,
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
  values: z.array(ConstraintValue).max(1000).optional(),
  value: ConstraintValue.optional(),
});
export type ConstraintInput = z.infer<typeof ConstraintInput>;

/** A stored constraint: defaults filled in, as Unleash returns it. */
export const Constraint = z.object({
  contextName: z.string(),
  operator: z.string(),
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
});
export type Constraint = z.infer<typeof Constraint>;
