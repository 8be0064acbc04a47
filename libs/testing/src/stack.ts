import { startStack, type Stack } from '@bunting/launcher';
import { httpClient, type HttpClient } from './http-client.ts';
import { isolate, type Isolation } from './isolation.ts';

export type TestStack = Stack & {
  isolation: Isolation;
  adminToken: string;
  /** A client that sends the admin token. */
  admin: HttpClient;
  /** A client without credentials. */
  anonymous: HttpClient;
  dispose: () => Promise<void>;
};

/** The real stack (Postgres, NATS, Redis) in this process, isolated for one test file. */
export async function startTestStack(options: { target?: string; env?: Record<string, string> } = {}): Promise<TestStack> {
  const isolation = await isolate();
  const adminToken = `*:*.admin-${isolation.id}`;
  const env = { ...isolation.env, INIT_ADMIN_API_TOKENS: adminToken, ...options.env };
  const stack = await startStack({ target: options.target ?? 'all', env });
  return {
    ...stack,
    isolation,
    adminToken,
    admin: httpClient(stack.url, { authorization: adminToken }),
    anonymous: httpClient(stack.url),
    dispose: async () => {
      await stack.close();
      await isolation.cleanup();
    },
  };
}
