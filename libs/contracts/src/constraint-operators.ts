// Plain values without zod, so a browser bundle can use them without carrying the schemas.

/**
 * The operators a client may write: the spec's fifteen, plus those Unleash 8.2 accepts and the SDKs evaluate
 * (SEMVER_GTE, SEMVER_LTE, REGEX) and IN_CIDR, which the SDKs evaluate too.
 */
export const CONSTRAINT_OPERATORS = [
  'NOT_IN',
  'IN',
  'STR_ENDS_WITH',
  'STR_STARTS_WITH',
  'STR_CONTAINS',
  'NUM_EQ',
  'NUM_GT',
  'NUM_GTE',
  'NUM_LT',
  'NUM_LTE',
  'DATE_AFTER',
  'DATE_BEFORE',
  'SEMVER_EQ',
  'SEMVER_GT',
  'SEMVER_LT',
  'SEMVER_GTE',
  'SEMVER_LTE',
  'REGEX',
  'IN_CIDR',
] as const;
export const SINGLE_VALUE_OPERATORS: ReadonlySet<string> = new Set([
  'NUM_EQ',
  'NUM_GT',
  'NUM_GTE',
  'NUM_LT',
  'NUM_LTE',
  'DATE_AFTER',
  'DATE_BEFORE',
  'SEMVER_EQ',
  'SEMVER_GT',
  'SEMVER_LT',
  'SEMVER_GTE',
  'SEMVER_LTE',
  'REGEX',
]);
