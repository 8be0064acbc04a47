import type { PayloadFilter } from '@bunting/contracts';
import { PreparedContext, compileConstraints } from '@bunting/evaluation';

/** Every scalar of a JSON payload by its dotted path: {"data": {"severity": 3}} gives "data.severity" = "3". */
export function flattenPayload(
  payload: unknown,
  prefix = '',
  into: Record<string, string> = {},
): Record<string, string> {
  if (payload === null || payload === undefined) return into;
  if (typeof payload === 'object') {
    for (const [key, value] of Object.entries(payload as Record<string, unknown>)) {
      flattenPayload(value, prefix ? `${prefix}.${key}` : key, into);
    }
    return into;
  }
  into[prefix] = String(payload);
  return into;
}

/**
 * An action set's payload filters, compiled with the same operators as flag constraints (equality, contains,
 * numeric comparisons, ...): every filter must hold. No filters match every signal.
 */
export function compilePayloadFilters(
  filters: Record<string, PayloadFilter> | undefined,
): (payload: unknown) => boolean {
  const check = compileConstraints(
    Object.entries(filters ?? {}).map(([path, filter]) => ({
      contextName: path,
      operator: filter.operator,
      ...(filter.value !== undefined ? { value: filter.value } : {}),
      values: filter.values ?? (filter.value !== undefined ? [filter.value] : []),
      inverted: filter.inverted ?? false,
      caseInsensitive: filter.caseInsensitive ?? false,
    })),
  );
  return (payload) => check(new PreparedContext({ properties: flattenPayload(payload) }));
}
