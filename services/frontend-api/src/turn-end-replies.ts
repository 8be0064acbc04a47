import type { FastifyReply } from 'fastify';

const replies: FastifyReply[] = [];
const bodies: (Buffer | undefined)[] = [];
let sent: PromiseWithResolvers<void> | null = null;

function sendWaiting() {
  // Read the length each time: a send may queue another answer (an answer made in a hook), which goes out too.
  for (let index = 0; index < replies.length; index += 1) {
    const reply = replies[index]!;
    try {
      reply.send(bodies[index]);
    } catch (error) {
      // Never leave a request waiting: what went wrong is answered in the error's shape.
      if (!reply.sent) reply.send(error);
    }
  }
  replies.length = 0;
  bodies.length = 0;
  const waiting = sent;
  sent = null;
  waiting?.resolve();
}

/**
 * Sends a pre-encoded answer at the end of the event loop's turn, with every other answer made in that turn,
 * instead of at once. Each write to a socket wakes its reader; on a loaded host a reader that went to sleep
 * between our writes costs the writer a cross-CPU wake-up (measured: half the edge's system time per request
 * under wrk), while answers written back to back find it still awake. Under load an answer waits at most for the
 * rest of the turn's requests; idle, for nothing.
 */
export function sendAtTurnEnd(reply: FastifyReply, body?: Buffer): void {
  replies.push(reply);
  bodies.push(body);
  if (replies.length === 1) setImmediate(sendWaiting);
}

/** Resolves once the answers waiting for the turn's end are sent (at once when none is). */
function turnEndSent(): Promise<void> {
  if (replies.length === 0) return Promise.resolve();
  sent ??= Promise.withResolvers<void>();
  return sent.promise;
}

/**
 * A handler's outcome when its answer may wait for the turn's end: nothing when it was made at once; when made
 * after an await, a promise settled only once it is sent, as Fastify answers a handler's settled promise itself.
 */
export function settledAfterSend(result: unknown): void | Promise<void> {
  if (result instanceof Promise) return result.then(turnEndSent);
  return undefined;
}
