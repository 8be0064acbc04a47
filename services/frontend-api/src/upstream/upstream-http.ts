import type { EdgeConfig } from './edge-config.ts';

/** The client spec the edge announces: segments by id, the delta protocol. */
export const CLIENT_SPEC = '5.2.0';

/** An answer from the upstream that cannot be used; `status` when it answered with one. */
export class UpstreamError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

export type UpstreamAnswer = { status: number; headers: Headers; text: string };

export type Upstream = {
  /** A request whose whole answer is read (up to the size limit) and returned, whatever its status. */
  request: (
    method: 'GET' | 'POST',
    path: string,
    options: { token?: string; headers?: Record<string, string>; body?: unknown },
  ) => Promise<UpstreamAnswer>;
  /** A streaming request: the answer's head once it comes; its body is read by the caller. */
  open: (
    path: string,
    options: { token: string; headers?: Record<string, string>; signal: AbortSignal },
  ) => Promise<Response>;
  /** Reads a body up to the size limit (a longer one is refused, not half-taken). */
  readLimited: (response: Response) => Promise<string>;
  url: (path: string) => URL;
  /** When the upstream last answered anything (ms since the epoch); 0 before it ever did. */
  lastAnswerAt: () => number;
  /** Notes that the upstream spoke (a message on an open stream). */
  touch: () => void;
  /** Whether the last try to reach the upstream found nothing there, and nothing answered since. */
  unreachable: () => boolean;
  /** Gives up every request under way and any made later: the edge is stopping. */
  abandon: () => void;
};

/** How the edge names itself to the upstream, so its requests are told from an SDK's. */
const IDENTITY = {
  'unleash-appname': 'bunting-edge',
  'unleash-sdk': 'bunting-edge:0.1.0',
  'unleash-client-spec': CLIENT_SPEC,
};

export function createUpstream(
  config: Pick<EdgeConfig, 'upstreamUrl' | 'maxUpstreamBytes' | 'requestTimeoutMs'>,
): Upstream {
  let lastAnswerAt = 0;
  let unreachable = false;
  const answered = () => {
    lastAnswerAt = Date.now();
    unreachable = false;
  };
  const notReached = (error: unknown) => {
    unreachable = true;
    return new UpstreamError(`the upstream cannot be reached: ${(error as Error).message}`);
  };
  const url = (path: string) => new URL(path.replace(/^\//, ''), config.upstreamUrl);
  const stopping = new AbortController();

  async function readLimited(response: Response): Promise<string> {
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > config.maxUpstreamBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new UpstreamError(
        `the upstream's answer is ${declared} bytes, over the edge's limit of ${config.maxUpstreamBytes} (EDGE_UPSTREAM_MAX_BYTES)`,
        response.status,
      );
    }
    if (!response.body) return '';
    const decoder = new TextDecoder();
    let text = '';
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > config.maxUpstreamBytes) {
        throw new UpstreamError(
          `the upstream's answer passed the edge's limit of ${config.maxUpstreamBytes} bytes (EDGE_UPSTREAM_MAX_BYTES)`,
          response.status,
        );
      }
      text += decoder.decode(chunk, { stream: true });
    }
    return text + decoder.decode();
  }

  function headersFor(token: string | undefined, extra: Record<string, string> | undefined, json: boolean) {
    return {
      ...IDENTITY,
      accept: 'application/json',
      ...(token ? { authorization: token } : {}),
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...extra,
    };
  }

  return {
    url,
    readLimited,
    lastAnswerAt: () => lastAnswerAt,
    async request(method, path, options) {
      const signal = AbortSignal.any([AbortSignal.timeout(config.requestTimeoutMs), stopping.signal]);
      let response: Response;
      try {
        response = await fetch(url(path), {
          method,
          headers: headersFor(options.token, options.headers, options.body !== undefined),
          ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
          signal,
        });
      } catch (error) {
        throw notReached(error);
      }
      try {
        const text = await readLimited(response);
        answered();
        return { status: response.status, headers: response.headers, text };
      } catch (error) {
        if (error instanceof UpstreamError) throw error;
        throw new UpstreamError(`the upstream's answer broke off: ${(error as Error).message}`, response.status);
      }
    },
    async open(path, options) {
      // The timeout bounds the wait for the head; the stream itself lasts until the caller's signal ends it. A signal
      // combined by AbortSignal.any leaves nothing on the caller's, however often a feed reconnects.
      const head = new AbortController();
      const timer = setTimeout(() => head.abort(new Error('no answer in time')), config.requestTimeoutMs);
      try {
        const response = await fetch(url(path), {
          headers: { ...headersFor(options.token, options.headers, false), accept: 'text/event-stream' },
          signal: AbortSignal.any([options.signal, head.signal, stopping.signal]),
        });
        answered();
        return response;
      } catch (error) {
        throw notReached(error);
      } finally {
        clearTimeout(timer);
      }
    },
    touch: answered,
    unreachable: () => unreachable,
    abandon: () => stopping.abort(new Error('the edge is stopping')),
  };
}
