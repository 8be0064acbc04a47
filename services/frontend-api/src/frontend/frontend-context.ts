import type { EvaluationContext } from '@bunting/contracts';
import { ValidationError } from '@bunting/platform';

const ROOT_FIELDS = new Set(['appName', 'environment', 'userId', 'sessionId', 'remoteAddress', 'currentTime']);
const MAX_VALUE_LENGTH = 2000;

function single(value: unknown): string | undefined {
  if (Array.isArray(value)) return single(value[0]);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return undefined;
  return String(value);
}

function checked(field: string, value: string): string {
  if (value.length > MAX_VALUE_LENGTH)
    throw ValidationError.field(field, `must be at most ${MAX_VALUE_LENGTH} characters`);
  return value;
}

// A parameter named __proto__ is no property: assigning it would set the properties object's prototype.

/**
 * The evaluation context of a frontend request, as the Unleash frontend API reads it: the known root fields,
 * properties[name]=value, and any other parameter as a property (an explicit properties[name] wins).
 * remoteAddress defaults to the caller's address; a currentTime that is not a date is refused.
 */
export function frontendContext(input: Record<string, unknown>, callerAddress: string): EvaluationContext {
  const context: EvaluationContext = {};
  const properties: Record<string, string> = {};
  let hasExplicit = false;
  // Bare parameters first, so that an explicit properties[name] (nested or bracketed) overwrites them below.
  for (const key in input) {
    if (key === '__proto__') continue;
    if (key === 'properties') {
      hasExplicit = true;
      continue;
    }
    if (isBracketed(key)) {
      hasExplicit = true;
      continue;
    }
    const value = single(input[key]);
    if (value === undefined) continue;
    if (ROOT_FIELDS.has(key)) context[key] = checked(key, value);
    else properties[key] = checked(key, value);
  }
  if (hasExplicit) {
    const nested = input.properties;
    if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
      for (const name in nested) {
        if (name === '__proto__') continue;
        const text = single((nested as Record<string, unknown>)[name]);
        if (text !== undefined) properties[name] = checked(`properties.${name}`, text);
      }
    }
    for (const key in input) {
      if (!isBracketed(key)) continue;
      const value = single(input[key]);
      const name = key.slice(BRACKET_OPEN.length, -1);
      if (value !== undefined && name !== '__proto__') properties[name] = checked(`properties.${name}`, value);
    }
  }
  // An empty currentTime means now, as the SDK reads it; any other value must be a date.
  if (context.currentTime === '') delete context.currentTime;
  if (context.currentTime !== undefined && Number.isNaN(Date.parse(context.currentTime as string))) {
    throw ValidationError.field('currentTime', 'must be a date-time, e.g. 2025-01-31T12:00:00Z');
  }
  if (context.remoteAddress === undefined) context.remoteAddress = callerAddress;
  context.properties = properties;
  return context;
}

const BRACKET_OPEN = 'properties[';

/** `properties[name]`, with a non-empty name. */
function isBracketed(key: string): boolean {
  return key.length > BRACKET_OPEN.length + 1 && key.charCodeAt(key.length - 1) === 93 && key.startsWith(BRACKET_OPEN);
}
