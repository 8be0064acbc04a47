import type { ErrorDetail, ErrorName } from '@bunting/contracts';

/** An error whose name, status and message may be shown to the caller as the spec's error body. */
export class DomainError extends Error {
  readonly status: number;
  readonly errorName: ErrorName;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /** Fields the body carries besides the error's own (Unleash's 401 says how one may sign in). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    status: number,
    errorName: ErrorName,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.status = status;
    this.errorName = errorName;
    this.details = options.details;
    this.headers = options.headers;
    this.extra = options.extra;
  }
}

/**
 * A rule's message about a field: a predicate reads as Unleash's do (`"name" must be URL friendly`, which its
 * clients and tests match), anything else as `field: message`.
 */
export function fieldMessage(field: string, message: string): string {
  if (!field) return message;
  return /^(must|is|are|should|cannot|can|may|has|have) /.test(message)
    ? `"${field}" ${message}`
    : `${field}: ${message}`;
}

export class ValidationError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'ValidationError', message, { details: details ?? [{ message }] });
  }
  /** A single bad field: the message names it and details point at it. */
  static field(path: string, message: string): ValidationError {
    return new ValidationError(fieldMessage(path, message), [{ path, message }]);
  }
}

export class AuthenticationRequired extends DomainError {
  constructor(
    message = 'You must log in or provide a valid API token to use this resource.',
    extra?: Record<string, unknown>,
  ) {
    super(401, 'AuthenticationRequired', message, extra ? { extra } : {});
  }
}

export class NoAccessError extends DomainError {
  readonly permission: string;
  constructor(permission: string, environment?: string | null) {
    const where = environment ? ` in the environment "${environment}"` : '';
    super(403, 'NoAccessError', `You don't have the required permission ${permission}${where} to perform this action.`);
    this.permission = permission;
  }
}

/** An operation the caller may do in general but not here (Unleash's InvalidOperationError); 403 with the spec's name. */
export class OperationRefused extends DomainError {
  constructor(message: string) {
    super(403, 'NoAccessError', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super(404, 'NotFoundError', message);
  }
}

export class NameExistsError extends DomainError {
  constructor(message: string) {
    super(409, 'NameExistsError', message);
  }
}

/** A change that conflicts with the current state: the spec names every 409 NameExistsError. */
export class ConflictError extends DomainError {
  constructor(message: string) {
    super(409, 'NameExistsError', message);
  }
}

export class RateLimitError extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'RateLimitError', message, { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super(413, 'PayloadTooLargeError', `The request body is larger than the limit of ${limitBytes} bytes.`);
  }
}
