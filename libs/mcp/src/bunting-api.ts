import { buntingClient, type ApiFetch, type BuntingClient } from '@bunting/api-client';

/** The header naming the agent's client on every call, which events record as createdVia. */
export const VIA_HEADER = 'x-bunting-via';

/**
 * How the tools reach Bunting's API: the typed client, over HTTP with a token (the local package) or through
 * admin-api's own routes (the remote server). Either way every call takes the API's own route, with its permission
 * checks and change-request gate, and names the agent's client.
 */
export function toolClient(options: {
  baseUrl: string;
  via: () => string | null;
  token?: string;
  fetch?: ApiFetch;
  timeoutMs?: number;
}): BuntingClient {
  return buntingClient({
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: () => {
      const via = options.via();
      return { ...(options.token ? { authorization: options.token } : {}), ...(via ? { [VIA_HEADER]: via } : {}) };
    },
  });
}
