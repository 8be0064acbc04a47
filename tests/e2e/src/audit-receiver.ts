import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { at: number; path: string; headers: IncomingHttpHeaders; body: string };

/**
 * An HTTP receiver for audit deliveries: it records every request, and can answer a number of them with 500, answer
 * slowly, or go away (its port closed) and come back on the same port.
 */
export type AuditReceiver = {
  url: string;
  received: Received[];
  failNext: (count: number) => void;
  delayMs: number;
  /** Requests being answered now, and the most at once so far (one deliverer sends one at a time). */
  inFlight: { now: number; most: number };
  down: () => Promise<void>;
  up: () => Promise<void>;
  close: () => Promise<void>;
};

export async function startAuditReceiver(path = '/'): Promise<AuditReceiver> {
  let failing = 0;
  let server: Server | undefined;
  const receiver: AuditReceiver = {
    url: '',
    received: [],
    failNext: (count) => {
      failing = count;
    },
    delayMs: 0,
    inFlight: { now: 0, most: 0 },
    down: async () => {
      const running = server;
      server = undefined;
      running?.closeAllConnections();
      await new Promise<void>((resolve) => (running ? running.close(() => resolve()) : resolve()));
    },
    up: () => listen(Number(new URL(receiver.url).port)),
    close: () => receiver.down(),
  };
  const listen = (port: number) =>
    new Promise<void>((resolve) => {
      server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          receiver.inFlight.now += 1;
          receiver.inFlight.most = Math.max(receiver.inFlight.most, receiver.inFlight.now);
          setTimeout(() => {
            receiver.inFlight.now -= 1;
            if (failing > 0) {
              failing -= 1;
              response.writeHead(500).end('{"error":"try again"}');
              return;
            }
            receiver.received.push({
              at: Date.now(),
              path: request.url ?? '/',
              headers: request.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
            response.writeHead(request.url?.includes('/api/v2/logs') ? 202 : 200).end('{"text":"Success","code":0}');
          }, receiver.delayMs);
        });
      });
      server.keepAliveTimeout = 1000;
      server.listen(port, '127.0.0.1', () => {
        receiver.url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}${path}`;
        resolve();
      });
    });
  await listen(0);
  return receiver;
}
