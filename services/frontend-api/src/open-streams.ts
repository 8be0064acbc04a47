import type { ServerResponse } from 'node:http';
import type { HttpServer } from '@bunting/platform';
import { writeToStream } from './stream-writes.ts';

/** An SDK whose stream brings nothing new is sent keep-alives so its read timeout (60 s) never fires. */
const HEARTBEAT_MS = 25_000;
const KEEP_ALIVE = Buffer.from(': keep-alive\n\n');

/**
 * The server-sent-event streams a route module holds open: one timer sends every stream's keep-alive (not one per
 * stream), and closing the server ends them all so it can stop (SDKs reconnect elsewhere).
 */
export function openStreams(app: HttpServer) {
  const open = new Map<() => void, ServerResponse>();
  const heartbeat = setInterval(() => {
    for (const raw of open.values()) writeToStream(raw, KEEP_ALIVE);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('preClose', (done) => {
    clearInterval(heartbeat);
    for (const close of [...open.keys()]) close();
    done();
  });
  return {
    /** A stream and how it is ended (which must call `remove`). */
    add: (close: () => void, raw: ServerResponse) => void open.set(close, raw),
    remove: (close: () => void) => void open.delete(close),
    size: () => open.size,
  };
}
