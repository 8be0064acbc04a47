import { z } from 'zod';
import { CONSTRAINT_OPERATORS } from './constraint-operators.ts';
import { textOrNumber } from './common.ts';

export { CONSTRAINT_OPERATORS, SINGLE_VALUE_OPERATORS } from './constraint-operators.ts';

export const ConstraintOperator = z.enum(CONSTRAINT_OPERATORS);
export type ConstraintOperator = z.infer<typeof ConstraintOperator>;

const ConstraintValue = z.string().max(100);

/** A constraint as a client writes it. Operator-specific rules are checked by admin-api on write. */
export const ConstraintInput = z.object({
  contextName: z.string().min(1).max(100),
  operator: ConstraintOperator,
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
  values: z.array(textOrNumber(ConstraintValue)).max(1000).optional(),
  // An empty single value is refused even beside values, as Unleash's constraint schema refuses it.
  value: textOrNumber(ConstraintValue.min(1)).optional(),
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
