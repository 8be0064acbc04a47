import type { EvaluationContext } from '@bunting/contracts';
import { DomainError } from '@bunting/platform';

const ROOT_FIELDS = new Set(['appName', 'environment', 'userId', 'sessionId', 'remoteAddress', 'currentTime']);
const MAX_VALUE_LENGTH = 2000;

/** An OFREP error answer: the spec's error shape plus the protocol's errorCode and errorDetails. */
export function ofrepError(status: number, errorCode: string, errorDetails: string, key?: string): DomainError {
  const name = status === 404 ? 'NotFoundError' : 'ValidationError';
  return new DomainError(status, name, errorDetails, {
    extra: { ...(key !== undefined ? { key } : {}), errorCode, errorDetails },
  });
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * An OFREP evaluation context as Unleash's: `targetingKey` is the userId (an explicit userId wins), Unleash's
 * context fields are read by their names, anything else becomes a property (objects as their JSON). The targetingKey
 * itself is not kept: it only ever stands for the userId, and a context made without deleting it keeps V8's fast shape.
 */
export function ofrepContext(body: unknown, callerAddress: string): EvaluationContext {
  const raw = body === undefined || body === null ? {} : body;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw ofrepError(400, 'INVALID_CONTEXT', 'the body must be a JSON object');
  const given = (raw as { context?: unknown }).context ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw ofrepError(400, 'INVALID_CONTEXT', 'context must be an object');
  const context: EvaluationContext = {};
  const properties: Record<string, string> = {};
  for (const [name, value] of Object.entries(given as Record<string, unknown>)) {
    // A field named __proto__ is no property: assigning it would set the properties object's prototype.
    if (name === 'targetingKey' || name === '__proto__') continue;
    if (name === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [property, propertyValue] of Object.entries(value)) {
        if (property === '__proto__') continue;
        const shown = text(propertyValue);
        if (shown !== undefined) properties[property] = shown;
      }
      continue;
    }
    const shown = text(value);
    if (shown === undefined) continue;
    if (shown.length > MAX_VALUE_LENGTH)
      throw ofrepError(400, 'INVALID_CONTEXT', `${name} is longer than ${MAX_VALUE_LENGTH} characters`);
    if (ROOT_FIELDS.has(name)) context[name] = shown;
    else properties[name] = shown;
  }
  const targetingKey = text((given as Record<string, unknown>).targetingKey);
  if (targetingKey !== undefined && context.userId === undefined) context.userId = targetingKey;
  if (context.currentTime === '') delete context.currentTime;
  if (context.currentTime !== undefined && Number.isNaN(Date.parse(context.currentTime as string))) {
    throw ofrepError(400, 'INVALID_CONTEXT', 'currentTime must be a date-time, e.g. 2025-01-31T12:00:00Z');
  }
  if (context.remoteAddress === undefined) context.remoteAddress = callerAddress;
  context.properties = properties;
  return context;
}
