import { connect, type Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * A worker thread holding a share of bench's SDK streams (see open-streams.ts). It tells its parent when all of its
 * streams are open and, asked, when each first heard of a change, as wall-clock milliseconds (threads do not share
 * performance.now()'s origin).
 */
type Job = { url: string; token: string; count: number };
type Stream = { socket: Socket; connected: Promise<void>; updatedAt?: number };

const { url, token, count } = workerData as Job;
const port = parentPort!;
const now = () => performance.timeOrigin + performance.now();

const CONNECTED = Buffer.from('unleash-connected');
const UPDATED = Buffer.from('unleash-updated');
// One buffer every socket of the thread reads into (each read is looked at before the next): net's `onread` hands
// the bytes over without a readable stream per socket.
const readInto = Buffer.alloc(64 * 1024);

/**
 * One stream, read as raw bytes: an HTTP parser, a decoder and a readable stream per socket cost more than the
 * edge's own work. A marker split across two reads is found by keeping the end of the previous one.
 */
function openStream(onUpdate: () => void): Stream {
  const { hostname, port: tcpPort } = new URL(url);
  let connected!: () => void;
  let tail = Buffer.alloc(0);
  const seen = (read: Buffer, marker: Buffer) =>
    read.includes(marker) ||
    (tail.length > 0 && Buffer.concat([tail, read.subarray(0, marker.length)]).includes(marker));
  const stream: Stream = {
    socket: undefined as unknown as Socket,
    connected: new Promise((resolve) => {
      connected = resolve;
    }),
  };
  stream.socket = connect({
    host: hostname,
    port: Number(tcpPort),
    onread: {
      buffer: readInto,
      callback: (length, buffer) => {
        const read = Buffer.from(buffer.buffer, buffer.byteOffset, length);
        if (seen(read, CONNECTED)) connected();
        if (stream.updatedAt === undefined && seen(read, UPDATED)) {
          stream.updatedAt = now();
          onUpdate();
        }
        tail = Buffer.from(read.subarray(Math.max(0, length - 20)));
        return true;
      },
    },
  });
  stream.socket.write(
    `GET /api/client/streaming HTTP/1.1\r\nhost: ${hostname}:${tcpPort}\r\nauthorization: ${token}\r\naccept: text/event-stream\r\n\r\n`,
  );
  stream.socket.on('error', () => undefined);
  return stream;
}

const streams: Stream[] = [];
let heard = 0;
for (let index = 0; index < count; index += 1) {
  streams.push(
    openStream(() => {
      heard += 1;
      if (heard === count) port.postMessage({ type: 'all-heard' });
    }),
  );
  // Opened in waves so the edge's accept queue is not what is measured.
  if (index % 250 === 249) await Promise.all(streams.slice(-250).map((stream) => stream.connected));
}
await Promise.all(streams.map((stream) => stream.connected));
port.postMessage({ type: 'open' });

port.on('message', (message: { type: 'collect' | 'close' }) => {
  if (message.type === 'collect') {
    port.postMessage({
      type: 'heard',
      at: streams.flatMap((stream) => (stream.updatedAt === undefined ? [] : [stream.updatedAt])),
    });
  } else {
    for (const stream of streams) stream.socket.destroy();
    port.close();
  }
});
