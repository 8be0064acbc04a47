import type { HttpServer } from '@bunting/platform';

/** An SDK whose stream brings nothing new is sent keep-alives so its read timeout (60 s) never fires. */
const HEARTBEAT_MS = 25_000;

/**
 * The server-sent-event streams a route module holds open: one timer sends every stream's keep-alive (not one per
 * stream), and closing the server ends them all so it can stop (SDKs reconnect elsewhere).
 */
export function openStreams(app: HttpServer) {
  const open = new Map<() => void, NodeJS.WritableStream>();
  const heartbeat = setInterval(() => {
    for (const raw of open.values()) raw.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('preClose', (done) => {
    clearInterval(heartbeat);
    for (const close of [...open.keys()]) close();
    done();
  });
  return {
    /** A stream and how it is ended (which must call `remove`). */
    add: (close: () => void, raw: NodeJS.WritableStream) => void open.set(close, raw),
    remove: (close: () => void) => void open.delete(close),
    size: () => open.size,
  };
}
