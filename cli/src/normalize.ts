import { SINGLE_VALUE_OPERATORS } from '@bunting/contracts';
import type {
  Constraint,
  ContextField,
  EnvironmentVariant,
  Flag,
  FlagEnvironment,
  ReleaseTemplate,
  Segment,
  Strategy,
} from './model.ts';

// One compact form for what the files say and what the server answers, so that comparing the two is deep equality:
// defaults are left out, lists the server keeps sorted are sorted, numbers in parameters are text.

type Loose = Record<string, unknown>;

function compact<T extends Loose>(value: T): T {
  const out: Loose = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    if (Array.isArray(item) && item.length === 0) continue;
    if (typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length === 0) continue;
    out[key] = item;
  }
  return out as T;
}

export function normalizeConstraint(input: Loose): Constraint {
  const operator = String(input['operator']) as Constraint['operator'];
  const single = SINGLE_VALUE_OPERATORS.has(operator);
  const values = Array.isArray(input['values']) ? (input['values'] as unknown[]).map(String) : [];
  const value = typeof input['value'] === 'string' || typeof input['value'] === 'number' ? String(input['value']) : '';
  return compact({
    contextName: String(input['contextName']),
    operator,
    values: single ? undefined : values,
    value: single && value !== '' ? value : undefined,
    caseInsensitive: input['caseInsensitive'] === true ? true : undefined,
    inverted: input['inverted'] === true ? true : undefined,
  });
}

function normalizeVariant(input: Loose): EnvironmentVariant {
  const weightType = input['weightType'] === 'fix' ? 'fix' : undefined;
  const payload = input['payload'] as { type: string; value: string } | undefined;
  const overrides = Array.isArray(input['overrides'])
    ? (input['overrides'] as Loose[]).map((override) => ({
        contextName: String(override['contextName']),
        values: (override['values'] as unknown[]).map(String),
      }))
    : undefined;
  return compact({
    name: String(input['name']),
    weightType,
    weight: weightType === 'fix' ? Number(input['weight']) : undefined,
    stickiness: input['stickiness'] && input['stickiness'] !== 'default' ? String(input['stickiness']) : undefined,
    payload: payload ? { type: payload.type, value: String(payload.value) } : undefined,
    overrides,
  }) as EnvironmentVariant;
}

/** Parameters as text, with what the server fills in for a gradual rollout written out. */
function normalizeParameters(name: string, flag: string, input: Loose | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(input ?? {})) out[key] = String(value);
  if (name === 'flexibleRollout') {
    out['groupId'] ??= flag;
    out['stickiness'] ??= 'default';
    out['rollout'] ??= '100';
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export function normalizeStrategy(input: Loose, flag: string, segmentNames: (id: unknown) => string): Strategy {
  const name = String(input['name']);
  return compact({
    name,
    title: typeof input['title'] === 'string' && input['title'] !== '' ? input['title'] : undefined,
    disabled: input['disabled'] === true ? true : undefined,
    parameters: normalizeParameters(name, flag, input['parameters'] as Loose | undefined),
    constraints: ((input['constraints'] as Loose[] | undefined) ?? []).map(normalizeConstraint),
    segments: ((input['segments'] as unknown[] | undefined) ?? []).map(segmentNames).sort(),
    variants: ((input['variants'] as Loose[] | undefined) ?? []).map((variant) => {
      const { overrides: _, ...rest } = normalizeVariant(variant);
      return rest;
    }),
  }) as Strategy;
}

export function normalizeEnvironment(
  input: { enabled: boolean; strategies?: Loose[]; variants?: Loose[] },
  flag: string,
  segmentNames: (id: unknown) => string,
): FlagEnvironment {
  return compact({
    enabled: input.enabled,
    strategies: (input.strategies ?? []).map((strategy) => normalizeStrategy(strategy, flag, segmentNames)),
    variants: (input.variants ?? []).map(normalizeVariant).sort((a, b) => a.name.localeCompare(b.name)),
  }) as FlagEnvironment;
}

/** A flag's own fields (not its environments), with Unleash's defaults left out. */
export function normalizeFlagFields(input: Loose): Omit<Flag, 'environments'> {
  return compact({
    type: input['type'] && input['type'] !== 'release' ? String(input['type']) : undefined,
    description:
      typeof input['description'] === 'string' && input['description'] !== '' ? input['description'] : undefined,
    impressionData: input['impressionData'] === true ? true : undefined,
    tags: ((input['tags'] as string[] | undefined) ?? []).slice().sort(),
    dependencies: ((input['dependencies'] as Loose[] | undefined) ?? []).map((dependency) =>
      compact({
        feature: String(dependency['feature']),
        enabled: dependency['enabled'] === false ? false : undefined,
        variants: ((dependency['variants'] as string[] | undefined) ?? []).slice().sort(),
      }),
    ) as Flag['dependencies'],
  });
}

export function normalizeSegment(input: Loose): Segment {
  return compact({
    description:
      typeof input['description'] === 'string' && input['description'] !== '' ? input['description'] : undefined,
    constraints: ((input['constraints'] as Loose[] | undefined) ?? []).map(normalizeConstraint),
  }) as Segment;
}

/** Deep equality of two normalized values (key order does not matter). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => same(item, other[index]));
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => same((a as Loose)[key], (b as Loose)[key]));
}

/** Weights as the server would keep them: fixed ones as given, the rest shared out of what is left. */
export function withWeights<V extends { weightType?: string; weight?: number }>(
  variants: readonly V[],
): (V & { weight: number; weightType: string })[] {
  const fixed = variants.filter((variant) => variant.weightType === 'fix');
  const variable = variants.filter((variant) => variant.weightType !== 'fix');
  const left = 1000 - fixed.reduce((sum, variant) => sum + (variant.weight ?? 0), 0);
  const share = variable.length > 0 ? Math.floor(left / variable.length) : 0;
  let remainder = variable.length > 0 ? left - share * variable.length : 0;
  return variants.map((variant) => {
    if (variant.weightType === 'fix') return { ...variant, weight: variant.weight ?? 0, weightType: 'fix' };
    const extra = remainder > 0 ? 1 : 0;
    remainder -= extra;
    return { ...variant, weight: share + extra, weightType: 'variable' };
  });
}

export function normalizeContextField(input: Loose): ContextField {
  return compact({
    description:
      typeof input['description'] === 'string' && input['description'] !== '' ? input['description'] : undefined,
    stickiness: input['stickiness'] === true ? true : undefined,
    legalValues: ((input['legalValues'] as Loose[] | undefined) ?? []).map((legal) =>
      compact({
        value: String(legal['value']),
        description:
          typeof legal['description'] === 'string' && legal['description'] !== '' ? legal['description'] : undefined,
      }),
    ) as ContextField['legalValues'],
  }) as ContextField;
}

/** A template as compared: milestones in order, strategies in the compact form (segments by name). */
export function normalizeTemplate(input: Loose, segmentNames: (id: unknown) => string): ReleaseTemplate {
  const milestones = ((input['milestones'] as Loose[] | undefined) ?? [])
    .slice()
    .sort((a, b) => Number(a['sortOrder'] ?? 0) - Number(b['sortOrder'] ?? 0))
    .map((milestone) =>
      compact({
        name: String(milestone['name']),
        intervalMinutes:
          (milestone['transitionCondition'] as { intervalMinutes?: number } | null | undefined)?.intervalMinutes ??
          (milestone['intervalMinutes'] as number | undefined),
        strategies: ((milestone['strategies'] as Loose[] | undefined) ?? []).map((strategy) =>
          normalizeStrategy({ ...strategy, name: strategy['name'] ?? strategy['strategyName'] }, '', segmentNames),
        ),
      }),
    );
  return compact({
    description:
      typeof input['description'] === 'string' && input['description'] !== '' ? input['description'] : undefined,
    milestones,
  }) as ReleaseTemplate;
}
