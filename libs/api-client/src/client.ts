import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './bunting-api.generated.d.ts';

/** Bunting's API, typed from its OpenAPI document: paths, parameters, bodies and answers as the server declares them. */
export type BuntingClient = Client<paths>;

/** How a request reaches Bunting: over HTTP by default, or through a process's own routes (admin-api's MCP server). */
export type ApiFetch = (request: Request) => Promise<Response>;

/** An answer outside 2xx, with the API's own message so a person or an agent can act on it. */
export class ApiRefused extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(method: string, path: string, status: number, body: unknown) {
    super(`${method} ${path} was refused (${status}): ${messageOf(body)}`);
    this.status = status;
    this.body = body;
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

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

// Every call either answers its success shape or throws, so callers never branch on `error`.
const refusals: Middleware = {
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const url = new URL(request.url);
    throw new ApiRefused(
      request.method,
      `${url.pathname}${url.search}`,
      response.status,
      await bodyOf(response.clone()),
    );
  },
};

/**
 * A client of one Bunting installation. `headers` go on every request (a token, the calling agent's name);
 * `timeoutMs` bounds each request.
 */
export function buntingClient(options: {
  baseUrl: string;
  headers?: Record<string, string> | (() => Record<string, string>);
  fetch?: ApiFetch;
  timeoutMs?: number;
}): BuntingClient {
  const send: ApiFetch = options.fetch ?? ((request) => fetch(request));
  const { timeoutMs, headers } = options;
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { accept: 'application/json' },
    fetch: (request) => {
      const extra = typeof headers === 'function' ? headers() : (headers ?? {});
      for (const [name, value] of Object.entries(extra)) request.headers.set(name, value);
      if (timeoutMs === undefined) return send(request);
      return send(new Request(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) }));
    },
  });
  client.use(refusals);
  return client;
}

/** The answer of a call that succeeded (a refusal has thrown already); null when the answer had no body. */
export async function answer<Result extends { data?: unknown }>(
  call: Promise<Result>,
): Promise<NonNullable<Result['data']>> {
  return ((await call).data ?? null) as NonNullable<Result['data']>;
}
