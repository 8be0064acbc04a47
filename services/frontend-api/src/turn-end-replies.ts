import type { FastifyReply } from 'fastify';

const replies: FastifyReply[] = [];
const bodies: (Buffer | string | undefined)[] = [];
let sent: PromiseWithResolvers<void> | null = null;
let sending = false;
const burstListeners: ((handedOver: boolean) => void)[] = [];

/** Whether every byte of an answer sent is with the kernel: nothing of it is still held by Node to write later. */
function handedOver(reply: FastifyReply): boolean {
  const response = reply.raw;
  const socket = response.socket;
  return (
    response.writableEnded &&
    response.writableLength === 0 &&
    socket !== null &&
    !socket.destroyed &&
    socket.writableLength === 0
  );
}

function sendWaiting() {
  sending = true;
  let allHandedOver = true;
  // Read the length each time: a send may queue another answer (an answer made in a hook), which goes out too.
  for (let index = 0; index < replies.length; index += 1) {
    const reply = replies[index]!;
    try {
      reply.send(bodies[index]);
    } catch (error) {
      // Never leave a request waiting: what went wrong is answered in the error's shape.
      if (!reply.sent) reply.send(error);
    }
    if (allHandedOver && !handedOver(reply)) allHandedOver = false;
  }
  replies.length = 0;
  bodies.length = 0;
  sending = false;
  const waiting = sent;
  sent = null;
  waiting?.resolve();
  for (const listener of burstListeners) listener(allHandedOver);
}

/**
 * Tells `listener` after each burst of answers is sent whether all of them were handed to the kernel, so memory
 * their bodies were cut from may be used again (when false, some are still being written from it).
 */
export function afterEachBurst(listener: (handedOver: boolean) => void): void {
  burstListeners.push(listener);
}

/**
 * At most this many answers wait: enough that the reader is still awake for the later writes of a burst, few
 * enough that other work in a long turn (the all-in-one process's consumers) cannot hold answers back for long.
 * Measured (wrk and autocannon, 50 connections, interleaved): 8 and 16 gave the most answers per second with a p99
 * near the bare route's; waiting for the whole turn gave as many but a p99 three times as high in some rounds.
 */
const MOST_WAITING = 16;

let answeredThisTurn = 0;
let turnEndScheduled = false;
/**
 * How many answers wait before a burst goes out: half as many as the last turn made, 1 to MOST_WAITING. Under
 * saturation turns are long and bursts full; under a load the edge keeps up with, an answer no longer waits for
 * the rest of its turn (wrk pacing 50 connections to about half the bare route's rate: p99 1.36x the bare
 * route's against 1.55x with bursts of 16 always; saturated, as many answers a second as before).
 */
let limit = MOST_WAITING;

function turnEnd() {
  turnEndScheduled = false;
  limit = Math.min(MOST_WAITING, Math.max(1, answeredThisTurn >> 1));
  answeredThisTurn = 0;
  if (replies.length > 0) sendWaiting();
}

/**
 * Sends a pre-encoded answer at the end of the event loop's turn, with the other answers made in that turn,
 * instead of at once. Each write to a socket wakes its reader; on a loaded host a reader that went to sleep
 * between our writes costs the writer a cross-CPU wake-up (measured: half the edge's system time per request
 * under wrk), while answers written back to back find it still awake. Idle, an answer waits for nothing; how many
 * wait in a busy turn follows the last turn (see limit).
 */
export function sendAtTurnEnd(reply: FastifyReply, body?: Buffer | string): void {
  replies.push(reply);
  bodies.push(body);
  answeredThisTurn += 1;
  if (!turnEndScheduled) {
    turnEndScheduled = true;
    setImmediate(turnEnd);
  }
  if (replies.length >= limit && !sending) sendWaiting();
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

/**
 * `answer` called with `value` at once when it is at hand (the common case: an answer without a single await), or
 * once the promise of it settles; the handler's outcome as settledAfterSend gives it.
 */
export function answerWhenReady<T>(value: T | Promise<T>, answer: (ready: T) => unknown): void | Promise<void> {
  return settledAfterSend(value instanceof Promise ? value.then(answer) : answer(value));
}
