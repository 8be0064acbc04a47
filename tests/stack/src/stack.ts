import { startStack, type Stack } from '@bunting/launcher';
import type { Connections } from '@bunting/platform';
import { httpClient, isolate, type HttpClient, type Isolation } from '@bunting/testing';
import { checkAnswersAgainstDocument } from './answer-check.ts';

export type TestStack = Stack & {
  isolation: Isolation;
  adminToken: string;
  /** A client that sends the admin token. */
  admin: HttpClient;
  /** A client without credentials. */
  anonymous: HttpClient;
  dispose: () => Promise<void>;
} & Connections;

/**
 * The real stack (Postgres, NATS, Redis) in this process, isolated for one test file. Every answer it sends is
 * checked against its OpenAPI document; disposing of the stack fails if one differed.
 */
export async function startTestStack(
  options: { target?: string; env?: Record<string, string> } = {},
): Promise<TestStack> {
  const isolation = await isolate();
  const adminToken = `*:*.admin-${isolation.id}`;
  const env = { ...isolation.env, INIT_ADMIN_API_TOKENS: adminToken, ...options.env };
  let answers: ReturnType<typeof checkAnswersAgainstDocument> | undefined;
  const stack = await startStack({
    target: options.target ?? 'all',
    env,
    instrument: (app) => (answers = checkAnswersAgainstDocument(app)),
    document: true,
  });
  const opened = (name: keyof Connections) => () => {
    const connection = stack.infrastructure[name];
    if (!connection) throw new Error(`the ${options.target ?? 'all'} target opened no ${name} connection`);
    return connection;
  };
  return Object.defineProperties(
    {
      ...stack,
      isolation,
      adminToken,
      admin: httpClient(stack.url, { authorization: adminToken }),
      anonymous: httpClient(stack.url),
      dispose: async () => {
        await stack.close();
        await isolation.cleanup();
        const violations = answers?.violations() ?? [];
        if (violations.length > 0)
          throw new Error(`answers that differ from the OpenAPI document:\n${[...new Set(violations)].join('\n')}`);
      },
    },
    {
      db: { get: opened('db') },
      messaging: { get: opened('messaging') },
      redis: { get: opened('redis') },
      verifier: { get: opened('verifier') },
    },
  ) as TestStack;
}
