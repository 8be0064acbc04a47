import { connect, headers as natsHeaders, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { natsNames, type NatsNames } from '@bunting/contracts';
import type { Logger } from './logger.ts';

export type Messaging = {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: NatsNames;
  log: Logger;
};

export async function connectMessaging(url: string, namespace: string, log: Logger): Promise<Messaging> {
  const nc = await connect({
    servers: url.split(','),
    name: `bunting-${process.pid}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
  });
  void watchStatus(nc, log);
  const jsm = await jetstreamManager(nc, { timeout: 5000 });
  return { nc, js: jetstream(nc, { timeout: 5000 }), jsm, names: natsNames(namespace), log };
}

async function watchStatus(nc: NatsConnection, log: Logger) {
  for await (const status of nc.status()) {
    if (status.type === 'disconnect') log.warn('NATS disconnected');
    if (status.type === 'reconnect') log.info('NATS reconnected');
  }
}

export type StreamSpec = { name: string; subjects: string[]; maxAgeMs: number; duplicateWindowMs?: number };

/** Creates the stream if it is missing and brings its subjects and limits up to date if it exists. */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec): Promise<void> {
  const config = {
    name: spec.name,
    subjects: spec.subjects,
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(spec.maxAgeMs),
    duplicate_window: nanos(spec.duplicateWindowMs ?? 120_000),
  };
  try {
    await jsm.streams.info(spec.name);
    await jsm.streams.update(spec.name, config);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      await jsm.streams.add(config);
    } catch (addError) {
      // Another replica created it between our two calls.
      if (!String((addError as Error).message).includes('already in use')) throw addError;
    }
  }
}

export function isNotFound(error: unknown): boolean {
  const message = String((error as Error)?.message ?? '');
  return message.includes('not found') || (error as { code?: number | string })?.code === 404;
}

/** The standard streams: domain events (kept 7 days), SDK metrics, received signals. */
export async function ensureStandardStreams(messaging: Messaging): Promise<void> {
  const { names, jsm } = messaging;
  const day = 24 * 3600 * 1000;
  await ensureStream(jsm, { name: names.eventsStream, subjects: [names.eventsSubjects], maxAgeMs: 7 * day });
  await ensureStream(jsm, { name: names.metricsStream, subjects: [names.metricsSubjects], maxAgeMs: day });
  await ensureStream(jsm, { name: names.signalsStream, subjects: [names.signalsSubjects], maxAgeMs: 7 * day });
}

export function toNatsHeaders(values: Record<string, string>): MsgHdrs {
  const result = natsHeaders();
  for (const [key, value] of Object.entries(values)) result.set(key, value);
  return result;
}

export function fromNatsHeaders(values: MsgHdrs | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  if (!values) return result;
  for (const key of values.keys()) result[key.toLowerCase()] = values.get(key);
  return result;
}

export async function closeMessaging(messaging: Messaging): Promise<void> {
  if (messaging.nc.isClosed()) return;
  await messaging.nc.drain().catch(() => messaging.nc.close());
}
