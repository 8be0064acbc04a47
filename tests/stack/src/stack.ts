import { startStack, type Stack } from '@bunting/launcher';
import type { Connections } from '@bunting/platform';
import { httpClient, isolate, type HttpClient, type Isolation } from '@bunting/testing';

export type TestStack = Stack & {
  isolation: Isolation;
  adminToken: string;
  /** A client that sends the admin token. */
  admin: HttpClient;
  /** A client without credentials. */
  anonymous: HttpClient;
  dispose: () => Promise<void>;
} & Connections;

/** The real stack (Postgres, NATS, Redis) in this process, isolated for one test file. */
export async function startTestStack(options: { target?: string; env?: Record<string, string> } = {}): Promise<TestStack> {
  const isolation = await isolate();
  const adminToken = `*:*.admin-${isolation.id}`;
  const env = { ...isolation.env, INIT_ADMIN_API_TOKENS: adminToken, ...options.env };
  const stack = await startStack({ target: options.target ?? 'all', env });
  const opened = (name: keyof Connections) => () => {
    const connection = stack.infrastructure[name];
    if (!connection) throw new Error(`the ${options.target ?? 'all'} target opened no ${name} connection`);
    return connection;
  };
  return Object.defineProperties({
    ...stack,
    isolation,
    adminToken,
    admin: httpClient(stack.url, { authorization: adminToken }),
    anonymous: httpClient(stack.url),
    dispose: async () => {
      await stack.close();
      await isolation.cleanup();
    },
  }, {
    db: { get: opened('db') },
    messaging: { get: opened('messaging') },
    redis: { get: opened('redis') },
    verifier: { get: opened('verifier') },
  }) as TestStack;
}
