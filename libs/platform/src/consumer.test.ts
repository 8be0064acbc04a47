import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { eventually, isolate, TEST_NATS_URL, type Isolation } from '@bunting/testing';
import { runDurableConsumer, type RunningConsumer } from './consumer.ts';
import { createLogger } from './logger.ts';
import { closeMessaging, connectMessaging, ensureStandardStreams, type Messaging } from './messaging.ts';

const log = createLogger('silent', 'consumer-test');
let isolation: Isolation;
let messaging: Messaging;
const running: RunningConsumer[] = [];

beforeAll(async () => {
  isolation = await isolate();
  messaging = await connectMessaging(TEST_NATS_URL, isolation.namespace, log);
  await ensureStandardStreams(messaging);
});

afterAll(async () => {
  for (const consumer of running) await consumer.stop();
  await closeMessaging(messaging);
  await isolation?.cleanup();
});

const Note = z.object({ id: z.string(), fail: z.number().optional() });
type Note = z.infer<typeof Note>;

function consume(
  name: string,
  handle: (note: Note, deliveryCount: number) => Promise<void>,
  options: { maxAckPending?: number } = {},
) {
  const consumer = runDurableConsumer({
    ...options,
    messaging,
    stream: messaging.names.eventsStream,
    durable: messaging.names.consumer(name),
    filterSubject: messaging.names.eventSubject(name),
    schema: Note,
    handle: (note, raw) => handle(note, raw.info.deliveryCount),
  });
  running.push(consumer);
  return consumer;
}

const publish = (name: string, body: unknown) =>
  messaging.js.publish(messaging.names.eventSubject(name), typeof body === 'string' ? body : JSON.stringify(body), {
    msgID: randomUUID(),
  });

const pendingAcks = async (name: string) =>
  (await messaging.jsm.consumers.info(messaging.names.eventsStream, messaging.names.consumer(name))).num_ack_pending;

describe('a durable consumer', () => {
  it('acknowledges a message only after its handler has finished', async () => {
    let release!: () => void;
    const finished = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handled: string[] = [];
    consume('ack-after', async (note) => {
      handled.push(note.id);
      await finished;
    });
    await publish('ack-after', { id: 'slow' });
    await eventually(async () => handled.includes('slow'));
    expect(await pendingAcks('ack-after')).toBe(1);
    release();
    await eventually(async () => (await pendingAcks('ack-after')) === 0);
  });

  it('hands messages over in stream order across replicas sharing it when one may be out at a time', async () => {
    const handled: number[] = [];
    // Two replicas whose handlers take varying time: with many messages out at once their writes would interleave.
    const replica = () =>
      consume(
        'in-order',
        async (note) => {
          await new Promise((resolve) => setTimeout(resolve, Number(note.id) % 3));
          handled.push(Number(note.id));
        },
        { maxAckPending: 1 },
      );
    replica();
    replica();
    for (let index = 0; index < 200; index += 1) await publish('in-order', { id: String(index) });
    await eventually(async () => handled.length === 200, { timeoutMs: 15_000 });
    expect(handled).toEqual([...handled].sort((a, b) => a - b));
  }, 20_000);

  it('gets a message again after its handler failed, until it succeeds', async () => {
    const attempts: number[] = [];
    consume('redelivery', async (note, deliveryCount) => {
      attempts.push(deliveryCount);
      if (deliveryCount <= (note.fail ?? 0)) throw new Error('not yet');
    });
    await publish('redelivery', { id: 'flaky', fail: 1 });
    await eventually(async () => attempts.length === 2, { timeoutMs: 15_000 });
    expect(attempts).toEqual([1, 2]);
    await eventually(async () => (await pendingAcks('redelivery')) === 0);
  }, 20_000);

  it('drops a message that does not fit its contract and goes on with the next', async () => {
    const handled: string[] = [];
    consume('poison', async (note) => {
      handled.push(note.id);
    });
    await publish('poison', 'not json at all');
    await publish('poison', { unexpected: true });
    await publish('poison', { id: 'healthy' });
    await eventually(async () => handled.includes('healthy'));
    expect(handled).toEqual(['healthy']);
    await eventually(async () => (await pendingAcks('poison')) === 0);
  });

  it('stops after the message in hand is done', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const done: string[] = [];
    const consumer = consume('stopping', async (note) => {
      await gate;
      done.push(note.id);
    });
    await publish('stopping', { id: 'in-hand' });
    await eventually(async () => (await pendingAcks('stopping')) === 1);
    const stopped = consumer.stop();
    release();
    await stopped;
    expect(done).toEqual(['in-hand']);
  });
});

describe('a durable consumer handling runs', () => {
  function consumeRuns(
    name: string,
    handleRun: (notes: Note[]) => Promise<void>,
    handle: (note: Note) => Promise<void>,
  ) {
    const consumer = runDurableConsumer({
      messaging,
      stream: messaging.names.eventsStream,
      durable: messaging.names.consumer(name),
      filterSubject: messaging.names.eventSubject(name),
      schema: Note,
      handle: (note) => handle(note),
      handleRun: (run) => handleRun(run.map(({ value }) => value)),
    });
    running.push(consumer);
    return consumer;
  }

  it('hands over what has arrived as runs, in order, and acknowledges each message once its run is done', async () => {
    const runs: string[][] = [];
    const single: string[] = [];
    // Both handlers write here, so the order checked is the order things were handled in.
    const handledInOrder: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    consumeRuns(
      'runs',
      async (notes) => {
        runs.push(notes.map((note) => note.id));
        handledInOrder.push(...notes.map((note) => note.id));
      },
      async (note) => {
        single.push(note.id);
        handledInOrder.push(note.id);
        if (note.id === '0') await gate;
      },
    );
    // The first message is handled alone (nothing else has arrived) and holds the consumer; the rest arrive meanwhile.
    await publish('runs', { id: '0' });
    await eventually(async () => single.length > 0);
    for (let index = 1; index < 60; index += 1) await publish('runs', { id: String(index) });
    release();
    await eventually(async () => single.length + runs.flat().length === 60);
    await eventually(async () => (await pendingAcks('runs')) === 0);
    // A message arriving after a run began comes alone, after it: [0], [1..58], [59] is in order.
    const handled = handledInOrder.map(Number);
    expect(handled).toEqual([...handled].sort((a, b) => a - b));
    expect(new Set(handled).size).toBe(60);
    // Most of the 59 that waited came in a few runs, not one by one.
    expect(runs.some((run) => run.length >= 10)).toBe(true);
  });

  it('handles a failed run message by message, so only the message that fails is retried', async () => {
    const handledAlone: string[] = [];
    let failedRuns = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    consumeRuns(
      'run-fails',
      async (notes) => {
        if (notes.some((note) => note.fail !== undefined)) {
          failedRuns += 1;
          throw new Error('a note in this run cannot be handled');
        }
      },
      async (note) => {
        if (note.id === 'first') await gate;
        if (note.fail !== undefined) throw new Error('cannot handle this note');
        handledAlone.push(note.id);
      },
    );
    await publish('run-fails', { id: 'first' });
    await eventually(async () => (await pendingAcks('run-fails')) === 1);
    for (const id of ['a', 'b', 'c']) await publish('run-fails', { id });
    await publish('run-fails', { id: 'bad', fail: 1 });
    await publish('run-fails', { id: 'd' });
    release();
    await eventually(async () => handledAlone.includes('d'));
    expect(failedRuns).toBeGreaterThan(0);
    expect(handledAlone).toEqual(expect.arrayContaining(['first', 'a', 'b', 'c', 'd']));
    expect(handledAlone).not.toContain('bad');
    // Everything but the failing note is acknowledged; it alone stays out, waiting to be tried again.
    await eventually(async () => (await pendingAcks('run-fails')) === 1);
  });
});
