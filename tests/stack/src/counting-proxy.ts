import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Bytes each way, and round trips: how many times the conversation turned from the client speaking to the server. */
export type Traffic = { toServer: number; toClient: number; roundTrips: number };

export type CountingProxy = { port: number; traffic: () => Traffic; reset: () => void; close: () => Promise<void> };

/**
 * A TCP proxy to a local port that counts what passes through it, for a benchmark that asks what a process costs
 * its NATS or Redis: the bytes each way and the round trips (per connection, each time the server answers after the
 * client spoke).
 */
export async function startCountingProxy(targetPort: number): Promise<CountingProxy> {
  let traffic: Traffic = { toServer: 0, toClient: 0, roundTrips: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    let clientSpoke = false;
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => {
      traffic.toServer += chunk.length;
      clientSpoke = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      traffic.toClient += chunk.length;
      if (clientSpoke) traffic.roundTrips += 1;
      clientSpoke = false;
      client.write(chunk);
    });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
      from.on('error', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    traffic: () => ({ ...traffic }),
    reset: () => {
      traffic = { toServer: 0, toClient: 0, roundTrips: 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
