import { DomainError, ValidationError } from './errors.ts';
import { mayHoldPrototypeKey, prototypeKeyPath } from './prototype-safety.ts';

/** Why a body was refused, for scopes that answer in another error shape (SCIM's scimType). */
export type JsonBodyFault = 'syntax' | 'prototype-key' | 'content';

/** A refused body: the spec's error, with what was wrong with it. */
export class JsonBodyError extends ValidationError {
  readonly fault: JsonBodyFault;
  constructor(fault: JsonBodyFault, error: ValidationError) {
    super(error.message, error.details);
    this.fault = fault;
  }
}

/**
 * A request body read as JSON, the same way in every scope: empty is none; text Postgres cannot hold (NUL, lone
 * surrogates) and keys that reach a prototype (`__proto__`, `constructor`/`prototype` holding an object) are
 * refused with the path they are at, so no handler or library behind the parser ever meets them.
 */
export function readJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (text.includes('\\u0000') || text.includes('\0')) {
    throw new JsonBodyError(
      'content',
      new ValidationError('Text in the request body must not contain NUL characters.'),
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new JsonBodyError(
      'syntax',
      new ValidationError('The request body is not valid JSON.', [{ path: 'body', message: 'invalid JSON' }]),
    );
  }
  // Only a \u escape can make a lone surrogate (decoding UTF-8 never does): text that is not valid Unicode.
  const badPath = text.includes('\\u') ? notWellFormedAt(parsed, '') : null;
  if (badPath !== null)
    throw new JsonBodyError(
      'content',
      ValidationError.field(badPath || 'body', 'is not valid Unicode text (a lone surrogate)'),
    );
  const reaching = mayHoldPrototypeKey(text) ? prototypeKeyPath(parsed) : null;
  if (reaching !== null)
    throw new JsonBodyError(
      'prototype-key',
      ValidationError.field(reaching, 'is a key no request may use (it names an object prototype)'),
    );
  return parsed;
}

/** The charset a JSON body may be sent in: UTF-8, or none named. */
export function refuseOtherCharset(contentType: string | undefined): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new DomainError(415, 'ContentTypeError', `Send JSON as UTF-8; the charset ${charset} is not accepted.`);
  }
}

function notWellFormedAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.isWellFormed() ? null : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = notWellFormedAt(item, path ? `${path}.${index}` : String(index));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!key.isWellFormed()) return path || 'body';
      const found = notWellFormedAt(item, at);
      if (found !== null) return found;
    }
  }
  return null;
}
