import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAtTurnEnd, settledAfterSend } from './turn-end-replies.ts';

const app = Fastify();
const handled: string[] = [];
app.get('/now/:id', (request, reply) => {
  const { id } = request.params as { id: string };
  handled.push(`handled ${id}`);
  return sendAtTurnEnd(reply.type('application/json'), Buffer.from(JSON.stringify({ id })));
});
app.get('/later/:id', (request, reply) => {
  const { id } = request.params as { id: string };
  return settledAfterSend(
    new Promise((resolve) => setTimeout(resolve, 5)).then(() =>
      sendAtTurnEnd(reply.type('application/json'), Buffer.from(JSON.stringify({ id }))),
    ),
  );
});
app.get('/not-modified', (_request, reply) => sendAtTurnEnd(reply.code(304)));
app.addHook('onSend', async (request, _reply, payload) => {
  handled.push(`sent ${request.url}`);
  return payload;
});

/** After the event loop's current turn, and the turn-end work it scheduled, is over. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('answers sent at the end of the turn', () => {
  let url = '';
  beforeAll(async () => {
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('answers each request with its own body', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) => fetch(`${url}/now/${index}`).then((reply) => reply.json())),
    );
    expect(replies).toEqual(Array.from({ length: 20 }, (_, index) => ({ id: String(index) })));
  });

  it('sends each answer at once after a light turn, and in bursts after a busy one', async () => {
    // A turn with one answer: the next turn's answers do not wait for each other.
    await app.inject('/now/warm');
    await nextTurn();
    handled.length = 0;
    await Promise.all([app.inject('/now/a'), app.inject('/now/b')]);
    expect(handled).toEqual(['handled a', 'sent /now/a', 'handled b', 'sent /now/b']);
    await nextTurn();
    // Injected requests are handled in one turn: 40 of them make the next turn's bursts full (16).
    await Promise.all(Array.from({ length: 40 }, (_, index) => app.inject(`/now/busy-${index}`)));
    await nextTurn();
    handled.length = 0;
    const replies = await Promise.all(Array.from({ length: 40 }, (_, index) => app.inject(`/now/${index}`)));
    expect(replies.map((reply) => reply.json().id)).toEqual(Array.from({ length: 40 }, (_, index) => String(index)));
    // No answer goes out before the burst is full, and the first 16 go out before the 17th is handled.
    expect(handled.indexOf('sent /now/0')).toBeGreaterThan(handled.indexOf('handled 15'));
    expect(handled.indexOf('sent /now/0')).toBeLessThan(handled.indexOf('handled 16'));
  });

  it('answers a request made after an await with its body, not an empty one', async () => {
    const replies = await Promise.all(
      ['x', 'y'].map((id) => fetch(`${url}/later/${id}`).then(async (reply) => [reply.status, await reply.text()])),
    );
    expect(replies).toEqual([
      [200, '{"id":"x"}'],
      [200, '{"id":"y"}'],
    ]);
  });

  it('sends an answer without a body', async () => {
    const reply = await fetch(`${url}/not-modified`);
    expect(reply.status).toBe(304);
  });
});
