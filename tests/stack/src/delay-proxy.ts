import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type DelayProxy = {
  url: string;
  /** Sends new connections to another port (an upstream started again elsewhere). */
  retarget: (port: number) => void;
  /** Cuts every open connection, as a network that drops. */
  cut: () => void;
  /** Bytes passed from the upstream to clients so far. */
  bytesToClients: () => number;
  close: () => Promise<void>;
};

/**
 * A TCP proxy that holds every chunk `delayMs` in each direction before passing it on: a far region's round trip on
 * one machine (this kernel has no netem). Order within a connection is kept; a side that closes closes the other.
 */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  let port = targetPort;
  const sockets = new Set<Socket>();
  let toClients = 0;
  const pipeDelayed = (from: Socket, to: Socket, count = false) => {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      if (count) toClients += chunk.length;
      const due = Date.now() + delayMs;
      chain = chain.then(
        () =>
          new Promise<void>((resolve) =>
            setTimeout(
              () => {
                if (!to.destroyed) to.write(chunk);
                resolve();
              },
              Math.max(0, due - Date.now()),
            ),
          ),
      );
    });
    from.on('end', () => void chain.then(() => to.end()));
    from.on('close', () => void chain.then(() => to.destroy()));
    from.on('error', () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    pipeDelayed(client, upstream);
    pipeDelayed(upstream, client, true);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    retarget: (next) => {
      port = next;
    },
    cut,
    bytesToClients: () => toClients,
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
