import type { EvaluationContext } from '@bunting/contracts';
import { HashKey } from './hashing.ts';

export type Context = EvaluationContext;

/**
 * A context made ready for evaluating many flags: every field the SDK's resolveContextValue could find in one
 * Map of strings, built once per request. As in unleash-client 6.12, a root field wins over a property of the same
 * name and only null or undefined count as missing: an empty string is a value (`NUM_LTE 0` holds for it).
 */
export class PreparedContext {
  readonly raw: Context;
  readonly fields = new Map<string, string>();
  // The root fields default stickiness reads, copied so every flag reads them from one object shape.
  readonly userId: unknown;
  readonly sessionId: unknown;
  readonly remoteAddress: unknown;
  // The last two ids hashed: a request hashes the same id or two (rollout and variant stickiness) for every flag.
  private lastKey: HashKey | undefined = undefined;
  private otherKey: HashKey | undefined = undefined;
  // What default stickiness hashes, found once per request (undefined until asked; null when the context has none).
  private rolloutKey: HashKey | null | undefined = undefined;
  private variantKey: HashKey | null | undefined = undefined;

  constructor(raw: Context) {
    this.raw = raw;
    this.userId = raw.userId;
    this.sessionId = raw.sessionId;
    this.remoteAddress = raw.remoteAddress;
    const properties = raw.properties;
    if (properties) {
      for (const name in properties) {
        const value = properties[name];
        if (value !== undefined && value !== null) this.fields.set(name, String(value));
      }
    }
    for (const name in raw) {
      if (name === 'properties') continue;
      const value = raw[name];
      if (value !== undefined && value !== null) this.fields.set(name, String(value));
    }
  }

  value(field: string): string | undefined {
    return this.fields.get(field);
  }

  /** The id a rollout with default stickiness hashes (userId, else sessionId); null when there is neither. */
  defaultRolloutKey(): HashKey | null {
    if (this.rolloutKey === undefined) {
      const id = this.userId || this.sessionId;
      this.rolloutKey = id ? this.hashKey(typeof id === 'string' ? id : String(id)) : null;
    }
    return this.rolloutKey;
  }

  /** The id variants with default stickiness hash: the first non-empty of userId, sessionId, remoteAddress; or null. */
  defaultVariantKey(): HashKey | null {
    if (this.variantKey === undefined) {
      const { userId, sessionId, remoteAddress } = this;
      const id =
        typeof userId === 'string' && userId !== ''
          ? userId
          : typeof sessionId === 'string' && sessionId !== ''
            ? sessionId
            : typeof remoteAddress === 'string' && remoteAddress !== ''
              ? remoteAddress
              : null;
      this.variantKey = id === null ? null : this.hashKey(id);
    }
    return this.variantKey;
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
