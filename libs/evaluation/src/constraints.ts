import { Address4, Address6 } from 'ip-address';
import { RE2JS } from 're2js';
import semver from 'semver';
import type { Constraint } from '@bunting/contracts';
import type { PreparedContext } from './context.ts';

export type Check = (context: PreparedContext) => boolean;

const never: Check = () => false;

function cleanValues(values: readonly string[] | undefined): string[] {
  return (values ?? []).map((value) => value.trim()).filter((value) => value.length > 0);
}

/** A strict semantic version, as the SDK accepts it: no leading "v", no loose forms. */
function parseSemver(value: string): semver.SemVer | null {
  if (value.startsWith('v')) return null;
  return semver.valid(value) ? new semver.SemVer(value) : null;
}

function compileIn(constraint: Constraint): Check {
  const values = new Set(cleanValues(constraint.values));
  const field = constraint.contextName;
  const isIn = (context: PreparedContext) => {
    const value = context.value(field);
    return value !== undefined && values.has(value);
  };
  return constraint.operator === 'IN' ? isIn : (context) => !isIn(context);
}

function compileString(constraint: Constraint): Check {
  const insensitive = constraint.caseInsensitive === true;
  const values = cleanValues(constraint.values).map((value) => (insensitive ? value.toLocaleLowerCase() : value));
  const field = constraint.contextName;
  const test: (text: string, value: string) => boolean =
    constraint.operator === 'STR_STARTS_WITH'
      ? (text, value) => text.startsWith(value)
      : constraint.operator === 'STR_ENDS_WITH'
        ? (text, value) => text.endsWith(value)
        : (text, value) => text.includes(value);
  return (context) => {
    const raw = context.value(field);
    if (raw === undefined) return false;
    const text = insensitive ? raw.toLocaleLowerCase() : raw;
    return values.some((value) => test(text, value));
  };
}

function compileNumber(constraint: Constraint): Check {
  const target = Number(constraint.value);
  if (Number.isNaN(target)) return never;
  const compare: (value: number) => boolean =
    {
      NUM_EQ: (value: number) => value === target,
      NUM_GT: (value: number) => value > target,
      NUM_GTE: (value: number) => value >= target,
      NUM_LT: (value: number) => value < target,
      NUM_LTE: (value: number) => value <= target,
    }[constraint.operator as 'NUM_EQ'] ?? (() => false);
  const field = constraint.contextName;
  return (context) => {
    const raw = context.value(field);
    if (raw === undefined) return false;
    const value = Number(raw);
    return !Number.isNaN(value) && compare(value);
  };
}

/**
 * The instant a DATE_AFTER or DATE_BEFORE constraint compares the time with; undefined where its value is no date (it
 * then never matches, whatever the time). Callers that reason about when answers change read dates the same way.
 */
export function constraintInstant(constraint: Pick<Constraint, 'value'>): number | undefined {
  const instant = new Date(constraint.value ?? '').getTime();
  return Number.isNaN(instant) ? undefined : instant;
}

function compileDate(constraint: Constraint): Check {
  const target = constraintInstant(constraint);
  if (target === undefined) return never;
  const after = constraint.operator === 'DATE_AFTER';
  // The SDK compares against currentTime whatever the constraint's field name.
  return (context) => {
    const currentTime = context.raw.currentTime;
    const current = currentTime ? new Date(currentTime).getTime() : Date.now();
    if (Number.isNaN(current)) return false;
    return after ? current > target : current < target;
  };
}

function compileSemver(constraint: Constraint): Check {
  const target = parseSemver((constraint.value ?? '').trim());
  if (!target) return never;
  const field = constraint.contextName;
  const compare: (value: semver.SemVer) => boolean =
    {
      SEMVER_EQ: (value: semver.SemVer) => semver.eq(value, target),
      SEMVER_GT: (value: semver.SemVer) => semver.gt(value, target),
      SEMVER_LT: (value: semver.SemVer) => semver.lt(value, target),
      SEMVER_GTE: (value: semver.SemVer) => semver.gte(value, target),
      SEMVER_LTE: (value: semver.SemVer) => semver.lte(value, target),
    }[constraint.operator as 'SEMVER_EQ'] ?? (() => false);
  return (context) => {
    const raw = context.value(field);
    if (raw === undefined) return false;
    const value = parseSemver(raw);
    return value !== null && compare(value);
  };
}

function compileRegex(constraint: Constraint): Check {
  const source = constraint.value ?? constraint.values?.[0];
  if (!source) return never;
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(source, constraint.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return never;
  }
  const field = constraint.contextName;
  return (context) => {
    const raw = context.value(field);
    return raw !== undefined && pattern.matcher(raw).find();
  };
}

/** Why a REGEX constraint's pattern would never match (it does not compile as RE2), or undefined. */
export function regexProblem(source: string, caseInsensitive: boolean): string | undefined {
  try {
    RE2JS.compile(source, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    return undefined;
  } catch (error) {
    return `"${source}" is not a valid regular expression (${error instanceof Error ? error.message : 'does not compile'})`;
  }
}

/** Why an IN_CIDR value is not an IPv4 or IPv6 address or range, or undefined. */
export function addressRangeProblem(value: string): string | undefined {
  const trimmed = value.trim();
  return Address4.isValid(trimmed) || Address6.isValid(trimmed)
    ? undefined
    : `"${trimmed}" is not an IP address or CIDR range`;
}

type Range = { contains: (address: string) => boolean };

/** An exact address or a v4/v6 CIDR range; anything unparsable matches nothing. */
export function parseRange(text: string): Range | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  try {
    if (Address4.isValid(trimmed)) {
      const range = new Address4(trimmed);
      return { contains: (address) => Address4.isValid(address) && new Address4(address).isInSubnet(range) };
    }
    if (Address6.isValid(trimmed)) {
      const range = new Address6(trimmed);
      return {
        contains: (address) => {
          if (Address6.isValid(address)) return new Address6(address).isInSubnet(range);
          if (Address4.isValid(address)) return Address6.fromAddress4(address).isInSubnet(range);
          return false;
        },
      };
    }
  } catch {
    return null;
  }
  return { contains: (address) => address === trimmed };
}

function compileCidr(constraint: Constraint): Check {
  const ranges = cleanValues(constraint.values)
    .map(parseRange)
    .filter((range): range is Range => range !== null);
  const field = constraint.contextName;
  return (context) => {
    const raw = context.value(field);
    if (raw === undefined) return false;
    return ranges.some((range) => {
      try {
        return range.contains(raw);
      } catch {
        return false;
      }
    });
  };
}

const COMPILERS: Record<string, (constraint: Constraint) => Check> = {
  IN: compileIn,
  NOT_IN: compileIn,
  STR_STARTS_WITH: compileString,
  STR_ENDS_WITH: compileString,
  STR_CONTAINS: compileString,
  NUM_EQ: compileNumber,
  NUM_GT: compileNumber,
  NUM_GTE: compileNumber,
  NUM_LT: compileNumber,
  NUM_LTE: compileNumber,
  DATE_AFTER: compileDate,
  DATE_BEFORE: compileDate,
  SEMVER_EQ: compileSemver,
  SEMVER_GT: compileSemver,
  SEMVER_LT: compileSemver,
  SEMVER_GTE: compileSemver,
  SEMVER_LTE: compileSemver,
  REGEX: compileRegex,
  IN_CIDR: compileCidr,
};

/** Compiles a constraint once; evaluating never throws, and `inverted` negates the operator's result. */
export function compileConstraint(constraint: Constraint | undefined): Check {
  if (!constraint) return never;
  const compiler = COMPILERS[constraint.operator];
  if (!compiler) return never;
  const check = compiler(constraint);
  // Set and Map lookups cannot throw; the parsing operators are guarded so no context value can crash a request.
  const safe: Check = CANNOT_THROW.has(constraint.operator)
    ? check
    : (context) => {
        try {
          return check(context);
        } catch {
          return false;
        }
      };
  return constraint.inverted ? (context) => !safe(context) : safe;
}

const CANNOT_THROW = new Set(['IN', 'NOT_IN']);

/**
 * A constraint as the engine's hot path keeps it: IN and NOT_IN (most constraints) as a field and a set,
 * checked inline; every other operator through its compiled check.
 */
export class ConstraintPlan {
  readonly field: string;
  /** The values of an IN or NOT_IN constraint; null for other operators. */
  readonly values: ReadonlySet<string> | null;
  /** Whether membership makes the constraint false (NOT_IN, or an inverted IN). */
  readonly negate: boolean;
  readonly check: Check;

  constructor(constraint: Constraint | undefined) {
    this.check = compileConstraint(constraint);
    const membership = constraint !== undefined && (constraint.operator === 'IN' || constraint.operator === 'NOT_IN');
    this.field = constraint?.contextName ?? '';
    this.values = membership ? new Set(cleanValues(constraint.values)) : null;
    this.negate = membership && (constraint.operator === 'NOT_IN') !== (constraint.inverted === true);
  }
}

/**
 * A strategy's full constraint list (its own and its segments'), shared by every strategy with the same list.
 * The answer for the request being evaluated is kept, so flags sharing a list (or a segment) check it once.
 */
export class ConstraintList {
  readonly plans: readonly ConstraintPlan[];
  private lastContext: PreparedContext | null = null;
  private lastResult = false;

  constructor(plans: readonly ConstraintPlan[]) {
    this.plans = plans;
  }

  holds(context: PreparedContext): boolean {
    if (this.lastContext === context) return this.lastResult;
    const result = constraintsHold(this.plans, context);
    this.lastContext = context;
    this.lastResult = result;
    return result;
  }
}

export function constraintsHold(plans: readonly ConstraintPlan[], context: PreparedContext): boolean {
  for (let index = 0; index < plans.length; index += 1) {
    const plan = plans[index]!;
    const values = plan.values;
    if (values !== null) {
      const value = context.fields.get(plan.field);
      if ((value !== undefined && values.has(value)) === plan.negate) return false;
    } else if (!plan.check(context)) {
      return false;
    }
  }
  return true;
}

export function compileConstraints(constraints: readonly (Constraint | undefined)[]): Check {
  const checks = constraints.map(compileConstraint);
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0]!;
  return (context) => {
    for (const check of checks) if (!check(context)) return false;
    return true;
  };
}
