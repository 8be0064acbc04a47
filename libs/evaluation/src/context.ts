import type { EvaluationContext } from '@bunting/contracts';

export type Context = EvaluationContext;

/**
 * A context made ready for evaluating many flags: every field the SDK's resolveContextValue could find
 * (root first, then properties; falsy values count as missing) in one Map, built once per request.
 */
export class PreparedContext {
  readonly raw: Context;
  readonly fields = new Map<string, unknown>();

  constructor(raw: Context) {
    this.raw = raw;
    const properties = raw.properties;
    if (properties) {
      for (const name in properties) {
        const value = properties[name];
        if (value) this.fields.set(name, value);
      }
    }
    for (const name in raw) {
      if (name === 'properties') continue;
      const value = raw[name];
      if (value) this.fields.set(name, value);
    }
  }

  value(field: string): unknown {
    return this.fields.get(field);
  }
}

export function prepareContext(context: Context | PreparedContext): PreparedContext {
  return context instanceof PreparedContext ? context : new PreparedContext(context);
}

/** A context field, read from the root first and then from properties; falsy values count as missing. */
export function contextValue(context: Context, field: string): unknown {
  const root = context[field];
  if (root) return root;
  return context.properties?.[field] || undefined;
}
