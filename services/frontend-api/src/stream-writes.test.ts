import { createServer, get, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginStream, writeToStream } from './stream-writes.ts';

const SHARED = Buffer.from('event: unleash-updated\ndata: {"events":[]}\n\n');

/** Each path writes a stream a different way, mixing the response's own writes with writeToStream's. */
const writers: Record<string, (raw: ServerResponse) => void> = {
  '/mixed': (raw) => {
    beginStream(raw, 'retry: 2000\n\n');
    writeToStream(raw, SHARED);
    raw.write(': keep-alive\n\n');
    writeToStream(raw, SHARED);
    raw.end();
  },
  '/not-begun': (raw) => {
    writeToStream(raw, SHARED);
    raw.end();
  },
};

const server = createServer((request, raw) => {
  raw.writeHead(200, { 'content-type': 'text/event-stream' });
  writers[request.url ?? '']?.(raw);
});

function fetchBody(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => resolve(body));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** The raw bytes of an HTTP/1.0 exchange, whose answer is not chunked: the server closes the connection instead. */
function rawExchange(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('writing one change to many streams', () => {
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('frames the shared message as a chunk, in order with the response own writes', async () => {
    // A chunk written unframed, or out of order, fails the client's parser or changes the body.
    expect(await fetchBody(port, '/mixed')).toBe(`retry: 2000\n\n${SHARED}: keep-alive\n\n${SHARED}`);
  });

  it('writes through the response before the stream has begun, so the head goes first', async () => {
    expect(await fetchBody(port, '/not-begun')).toBe(String(SHARED));
  });

  it('writes the message unframed to a client whose answer is not chunked', async () => {
    const exchange = await rawExchange(port, '/mixed');
    expect(exchange.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(exchange.toLowerCase()).not.toContain('transfer-encoding: chunked');
    expect(exchange.split('\r\n\r\n').slice(1).join('\r\n\r\n')).toBe(
      `retry: 2000\n\n${SHARED}: keep-alive\n\n${SHARED}`,
    );
  });
});
