import createClient, { type Middleware } from 'openapi-fetch';
import type { ErrorDetail } from '@bunting/contracts';
import type { paths } from '@bunting/api-client';

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

/** A refusal becomes an ApiError, so every call either answers its success shape or throws. */
const refusals: Middleware = {
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { message: text };
    }
    const error = new ApiError(response.status, (body ?? {}) as Record<string, unknown>);
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/auth/')) onUnauthenticated(error);
    throw error;
  },
};

/**
 * Bunting's own API with the session cookie, typed from its OpenAPI document (`@bunting/api-client`'s generated types): the paths,
 * parameters, bodies and answers are those the server declares. Writes carry the page's origin (browsers add it),
 * which admin-api checks against cross-site requests.
 */
export const api = createClient<paths>({ credentials: 'same-origin', headers: { accept: 'application/json' } });
api.use(refusals);

/** The answer of a call that succeeded (a refusal has thrown already). */
export async function answer<Result extends { data?: unknown }>(
  call: Promise<Result>,
): Promise<NonNullable<Result['data']>> {
  return (await call).data as NonNullable<Result['data']>;
}

/** The message a failed call shows the user. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** The error a field shows: the detail whose path names it (the API's ValidationError details carry the path). */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const detail = error.details.find(
    (candidate) =>
      candidate.path === field || candidate.path?.startsWith(`${field}.`) || candidate.path?.startsWith(`${field}[`),
  );
  return detail?.message;
}
