import type { ErrorDetail } from '@bunting/contracts';

/** An answer the API refused, in the spec's error shape: what to show, and which field it is about. */
export class ApiError extends Error {
  readonly status: number;
  readonly errorName: string;
  readonly details: ErrorDetail[];
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.message === 'string' ? body.message : `The server answered ${status}`);
    this.status = status;
    this.errorName = typeof body.name === 'string' ? body.name : 'Error';
    this.details = Array.isArray(body.details) ? (body.details as ErrorDetail[]) : [];
    this.body = body;
  }
}

type Unauthenticated = (error: ApiError) => void;
let onUnauthenticated: Unauthenticated = () => undefined;

/** What to do when a request finds the session gone (the app sends the user to sign-in, then back). */
export function whenUnauthenticated(handler: Unauthenticated) {
  onUnauthenticated = handler;
}

/**
 * A call to Bunting's own API with the session cookie. JSON in and out; a refusal throws ApiError. Writes carry the
 * page's origin (browsers add it), which admin-api checks against cross-site requests.
 */
export async function api<T = unknown>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = { message: text };
  }
  if (!response.ok) {
    const error = new ApiError(response.status, (body ?? {}) as Record<string, unknown>);
    if (response.status === 401 && !path.startsWith('/auth/')) onUnauthenticated(error);
    throw error;
  }
  return body as T;
}

export const get = <T>(path: string, signal?: AbortSignal) => api<T>(path, signal ? { signal } : {});
export const post = <T = unknown>(path: string, body?: unknown) => api<T>(path, { method: 'POST', body });
export const put = <T = unknown>(path: string, body?: unknown) => api<T>(path, { method: 'PUT', body });
export const patch = <T = unknown>(path: string, body?: unknown) => api<T>(path, { method: 'PATCH', body });
export const remove = <T = unknown>(path: string) => api<T>(path, { method: 'DELETE' });

/** A path segment, encoded. */
export const segment = (value: string) => encodeURIComponent(value);

/** The message a failed call shows the user. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** The error a field shows: the detail whose path names it (the API's ValidationError details carry the path). */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const detail = error.details.find((candidate) => candidate.path === field || candidate.path?.startsWith(`${field}.`) || candidate.path?.startsWith(`${field}[`));
  return detail?.message;
}
