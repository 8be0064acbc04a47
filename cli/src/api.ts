/** The admin API of a Bunting (or an Unleash 8) server, as the CLI uses it. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, method: string, path: string, body: string) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 500)}`);
    this.status = status;
    this.body = body;
  }
}

export interface Api {
  readonly url: string;
  get<T>(path: string): Promise<T>;
  /** A GET whose 404 means "the server has no such thing" (an Unleash without an enterprise route). */
  getOptional<T>(path: string): Promise<T | null>;
  send<T = unknown>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

export function connect(options: { url: string; token: string; via: string }): Api {
  const base = options.url.replace(/\/+$/, '');
  const headers = {
    authorization: options.token,
    accept: 'application/json',
    'user-agent': options.via,
    // Bunting records it as the events' createdVia; Unleash ignores it.
    'x-bunting-via': options.via,
  };
  async function call<T>(method: string, path: string, body?: unknown, optional = false): Promise<T | null> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (optional && response.status === 404) return null;
    if (!response.ok) throw new ApiError(response.status, method, path, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return {
    url: base,
    get: async <T>(path: string) => (await call<T>('GET', path)) as T,
    getOptional: <T>(path: string) => call<T>('GET', path, undefined, true),
    send: async <T>(method: string, path: string, body?: unknown) => (await call<T>(method, path, body)) as T,
  };
}
