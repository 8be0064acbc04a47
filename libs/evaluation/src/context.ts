import type { EvaluationContext } from '@bunting/contracts';

export type Context = EvaluationContext;

/** A context field, read from the root first and then from properties; empty values count as missing. */
export function contextValue(context: Context, field: string): unknown {
  const root = context[field];
  if (root !== undefined && root !== null && root !== '') return root;
  const property = context.properties?.[field];
  if (property !== undefined && property !== null && property !== '') return property;
  return undefined;
}
