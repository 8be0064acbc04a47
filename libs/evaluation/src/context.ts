import type { EvaluationContext } from '@bunting/contracts';
import { HashKey } from './hashing.ts';

export type Context = EvaluationContext;

/**
 * A context made ready for evaluating many flags: every field the SDK's resolveContextValue could find
 * (root first, then properties; falsy values count as missing) in one Map, built once per request.
 */
export class PreparedContext {
  readonly raw: Context;
  readonly fields = new Map<string, unknown>();
  // The root fields default stickiness reads, copied so every flag reads them from one object shape.
  readonly userId: unknown;
  readonly sessionId: unknown;
  readonly remoteAddress: unknown;
  // The last two ids hashed: a request hashes the same id or two (rollout and variant stickiness) for every flag.
  private lastKey: HashKey | undefined = undefined;
  private otherKey: HashKey | undefined = undefined;

  constructor(raw: Context) {
    this.raw = raw;
    this.userId = raw.userId;
    this.sessionId = raw.sessionId;
    this.remoteAddress = raw.remoteAddress;
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

  hashKey(text: string): HashKey {
    const last = this.lastKey;
    if (last !== undefined && last.text === text) return last;
    const other = this.otherKey;
    if (other !== undefined && other.text === text) return other;
    const key = new HashKey(text);
    this.otherKey = last;
    this.lastKey = key;
    return key;
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
