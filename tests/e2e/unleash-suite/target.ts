import supertest from 'supertest';
import { startTestStack, startUnleashPeer } from '@bunting/test-stack';

/** Which server Unleash's own e2e files run against: a fresh one for each file, so each starts as Unleash's do. */
export const TARGET = process.env.UNLEASH_SUITE_TARGET === 'unleash' ? 'unleash' : 'bunting';

export type Served = { url: string; adminToken: string; stop: () => Promise<void> };

/** Servers this file started: stopped after it even where its own teardown never runs (a failed setup). */
const running = new Set<() => Promise<void>>();

export async function serve(): Promise<Served> {
  const started =
    TARGET === 'unleash'
      ? await startUnleashPeer().then((peer) => ({ url: peer.url, adminToken: peer.adminToken, stop: peer.stop }))
      : await startTestStack().then((stack) => ({
          url: stack.url,
          adminToken: stack.adminToken,
          stop: () => stack.dispose(),
        }));
  let stopped: Promise<void> | undefined;
  const stop = () => {
    running.delete(stop);
    return (stopped ??= started.stop());
  };
  running.add(stop);
  return { ...started, stop };
}

export async function stopAll(): Promise<void> {
  await Promise.allSettled([...running].map((stop) => stop()));
}

/** A supertest agent on the server, as Unleash's helper gives one on its app: every request carries the admin token. */
export const agentOn = (served: Served) => supertest.agent(served.url).set('Authorization', served.adminToken);

/**
 * What Unleash's tests reach inside its process (stores, services, the database): nothing over HTTP answers it, so
 * touching it fails the test on both servers, and such a test is not a wire test.
 */
export function insideUnleash(what: string): never {
  return new Proxy(
    {},
    {
      get: (_target, property) => {
        if (property === 'then') return undefined;
        throw new Error(`${what}.${String(property)} is inside Unleash's process: not reachable over HTTP`);
      },
    },
  ) as never;
}
