import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from './http-server.ts';
import { createLogger } from './logger.ts';

let app: HttpServer;
let port: number;

beforeAll(async () => {
  app = createHttpServer({ log: createLogger('silent', 'http-test'), bodyLimit: 1024 * 1024 });
  app.post('/echo', async (request) => ({ got: request.body }));
  let version = 1;
  app.get('/polled', { config: { etag: true } }, async () => ({ version }));
  app.post('/polled', async () => ({ version: ++version }));
  app.get('/unpolled', async () => ({ version }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
afterAll(() => app?.close());

/** A client that sends its whole request before it reads anything, as simple HTTP clients do. */
function sendAllThenRead(head: string, bodyBytes: number): Promise<{ answer: string; error: string | null }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    let answer = '';
    let error: string | null = null;
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    socket.on('close', () => resolve({ answer, error }));
    socket.write(`${head}Content-Length: ${bodyBytes}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    let sent = 0;
    const pump = () => {
      if (socket.destroyed) return;
      if (sent >= bodyBytes) {
        socket.resume();
        socket.end();
        return;
      }
      sent += chunk.length;
      socket.write(chunk, () => setImmediate(pump));
    };
    pump();
  });
}

describe('answers to refused bodies', () => {
  it('lets a client that sends a 2 MB body before reading get the 413, not a broken pipe', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { answer, error } = await sendAllThenRead(
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
        2 * 1024 * 1024,
      );
      expect(error).toBeNull();
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
      expect(answer).toContain('PayloadTooLargeError');
    }
  });

  it('does the same for a body of a type it does not take (415)', async () => {
    const { answer, error } = await sendAllThenRead(
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/xml\r\n',
      2 * 1024 * 1024,
    );
    expect(error).toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 415/);
  });
});

describe('what a JSON body must be', () => {
  const post = (body: string, contentType: string) =>
    fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body, headers: { 'content-type': contentType } });

  it('is UTF-8: another charset is refused with 415, changing nothing', async () => {
    const refused = await post('{"a":1}', 'application/json; charset=utf-16');
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ name: 'ContentTypeError' });
    expect((await post('{"a":1}', 'application/json; charset=UTF-8')).status).toBe(200);
  });

  it('is JSON: text/plain is refused with 415 like any other type', async () => {
    const refused = await post('{"a":1}', 'text/plain');
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ name: 'ContentTypeError' });
  });

  it('is valid Unicode: a lone surrogate is refused with 400 naming the field', async () => {
    const refused = await post('{"constraints":[{"value":"\\ud800"}]}', 'application/json');
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { details: { path: string }[] };
    expect(body).toMatchObject({ name: 'ValidationError' });
    expect(body.details[0]?.path).toBe('constraints.0.value');
    expect((await post('{"emoji":"\\ud83d\\ude00"}', 'application/json')).status).toBe(200);
  });
});

describe('conditional GET', () => {
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;

  it('answers 304 without a body while the answer is unchanged, and the new body once it changes', async () => {
    const first = await fetch(url('/polled'));
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await fetch(url('/polled'), { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    await fetch(url('/polled'), { method: 'POST' });
    const changed = await fetch(url('/polled'), { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ version: 2 });
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('leaves routes that did not ask for it alone', async () => {
    const answer = await fetch(url('/unpolled'));
    expect(answer.headers.get('etag')).toBeNull();
  });
});
