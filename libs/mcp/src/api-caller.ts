/** One answer of Bunting's HTTP API, as the tools read it. */
export type ApiAnswer = { status: number; body: unknown };

/**
 * How the tools reach Bunting's API: in admin-api, in-process as the caller; in the local package, over HTTP with a
 * token. Either way every call takes the API's own route, with its permission checks and change-request gate.
 */
export interface ApiCaller {
  call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<ApiAnswer>;
}

/** The header naming the agent's client on every call, which events record as createdVia. */
export const VIA_HEADER = 'x-bunting-via';

/** An API refusal, carrying the API's own message so the agent can act on it. */
export class ApiRefused extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(method: string, path: string, answer: ApiAnswer) {
    super(`${method} ${path} was refused (${answer.status}): ${messageOf(answer.body)}`);
    this.status = answer.status;
    this.body = answer.body;
  }
}

function messageOf(body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const record = body as { message?: unknown; details?: { message?: unknown }[] };
    const details = Array.isArray(record.details)
      ? record.details.map((detail) => detail.message).filter((text) => typeof text === 'string')
      : [];
    const main = typeof record.message === 'string' ? record.message : JSON.stringify(body);
    return details.length > 0 && !details.includes(main) ? `${main} (${details.join('; ')})` : main;
  }
  return typeof body === 'string' && body !== '' ? body : 'no message';
}

/** Calls the API and answers its body, or throws ApiRefused for anything but 2xx. */
export async function ask<T = unknown>(
  caller: ApiCaller,
  method: Parameters<ApiCaller['call']>[0],
  path: string,
  body?: unknown,
): Promise<T> {
  const answer = await caller.call(method, path, body);
  if (answer.status < 200 || answer.status >= 300) throw new ApiRefused(method, path, answer);
  return answer.body as T;
}

/** A caller over HTTP: the local package's, with a personal access token or service-account token. */
export function httpCaller(options: {
  baseUrl: string;
  token: string;
  via: () => string | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): ApiCaller {
  const base = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;
  return {
    async call(method, path, body) {
      const via = options.via();
      const response = await send(`${base}${path}`, {
        method,
        headers: {
          authorization: options.token,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(via ? { [VIA_HEADER]: via } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      return { status: response.status, body: parseBody(await response.text()) };
    },
  };
}

/** An answer's body: JSON when it is JSON, else the text (null when empty). */
export function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A path segment, escaped (names are URL friendly, but an agent may send anything). */
export const seg = (value: string | number) => encodeURIComponent(String(value));
