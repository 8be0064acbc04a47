import { connect, headers as natsHeaders, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StoredMsg,
} from '@nats-io/jetstream';
import { natsNames, type NatsNames } from '@bunting/contracts';
import type { Logger } from './logger.ts';

export type Messaging = {
  nc: NatsConnection;
  /** Whether the connection is up now (it reconnects on its own after an outage). */
  connected: () => boolean;
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: NatsNames;
  log: Logger;
};

export async function connectMessaging(url: string, namespace: string, log: Logger): Promise<Messaging> {
  const nc = await connect({
    // Several servers (a cluster): the client picks one and moves to another when it goes.
    servers: url
      .split(',')
      .map((server) => server.trim())
      .filter(Boolean),
    name: `bunting-${process.pid}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
  });
  const state = { connected: true };
  void watchStatus(nc, log, state);
  const jsm = await jetstreamManager(nc, { timeout: 5000 });
  return {
    nc,
    connected: () => state.connected && !nc.isClosed(),
    js: jetstream(nc, { timeout: 5000 }),
    jsm,
    names: natsNames(namespace),
    log,
  };
}

async function watchStatus(nc: NatsConnection, log: Logger, state: { connected: boolean }) {
  for await (const status of nc.status()) {
    if (status.type === 'disconnect') {
      state.connected = false;
      log.warn('NATS disconnected');
    }
    if (status.type === 'reconnect') {
      state.connected = true;
      log.info('NATS reconnected');
    }
  }
}

export type StreamSpec = {
  name: string;
  subjects: string[];
  maxAgeMs: number;
  duplicateWindowMs?: number;
  replicas?: number;
};

/**
 * Creates the stream if it is missing and brings its subjects, limits and replica count up to date if it exists
 * (JetStream copies a stream to more servers, or drops copies, when its replica count changes).
 */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec): Promise<void> {
  const config = {
    name: spec.name,
    subjects: spec.subjects,
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(spec.maxAgeMs),
    duplicate_window: nanos(spec.duplicateWindowMs ?? 120_000),
    num_replicas: spec.replicas ?? 1,
  };
  try {
    const existing = await jsm.streams.info(spec.name);
    if (sameSettings(existing.config, config)) return;
    try {
      await jsm.streams.update(spec.name, config);
    } catch (updateError) {
      // Changing the replica count answers only once the new copies are placed, which can outlast the request's
      // timeout; the change goes on regardless, so wait for the stream to report it.
      if (existing.config.num_replicas === config.num_replicas || !isTimeout(updateError)) throw updateError;
      await waitForReplicas(jsm, spec.name, config.num_replicas);
    }
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

/** What ensureStream sets: equal on these, an update would change nothing. */
function sameSettings(
  current: { subjects?: string[]; max_age: number; duplicate_window: number; num_replicas: number },
  wanted: { subjects: string[]; max_age: number; duplicate_window: number; num_replicas: number },
): boolean {
  return (
    current.max_age === wanted.max_age &&
    current.duplicate_window === wanted.duplicate_window &&
    current.num_replicas === wanted.num_replicas &&
    JSON.stringify([...(current.subjects ?? [])].sort()) === JSON.stringify([...wanted.subjects].sort())
  );
}

async function waitForReplicas(jsm: JetStreamManager, name: string, replicas: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const info = await jsm.streams.info(name).catch(() => undefined);
    // Done when every copy exists and one of them leads.
    if (
      info?.config.num_replicas === replicas &&
      (replicas === 1 || (info.cluster?.leader && info.cluster.replicas?.length === replicas - 1))
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`stream ${name} did not reach ${replicas} replicas within 60 s`);
}

function isTimeout(error: unknown): boolean {
  return (error as Error)?.name === 'TimeoutError' || /timeout/i.test(String((error as Error)?.message ?? ''));
}

export function isNotFound(error: unknown): boolean {
  const message = String((error as Error)?.message ?? '');
  return message.includes('not found') || (error as { code?: number | string })?.code === 404;
}

/**
 * The last message a stream holds on a subject, or null when it holds none (nats.js answers null or throws "no
 * message found" depending on the version; a missing stream counts as none too).
 */
export async function lastMessageOn(messaging: Messaging, stream: string, subject: string): Promise<StoredMsg | null> {
  try {
    return await messaging.jsm.streams.getMessage(stream, { last_by_subj: subject });
  } catch (error) {
    if (isNotFound(error) || /no message found/i.test(String((error as Error)?.message ?? ''))) return null;
    throw error;
  }
}

/** How long the configuration feed's stream keeps a message: admin-api writes each scope whole again at half of it. */
export const FEED_MAX_AGE_MS = 2 * 24 * 3600 * 1000;

/** The standard streams: domain events (kept 7 days), SDK metrics, received signals, the configuration feed. */
export async function ensureStandardStreams(messaging: Messaging, replicas = 1): Promise<void> {
  const { names, jsm } = messaging;
  const day = 24 * 3600 * 1000;
  await ensureStream(jsm, {
    name: names.feedStream,
    subjects: [names.feedSubjects],
    maxAgeMs: FEED_MAX_AGE_MS,
    replicas,
  });
  await ensureStream(jsm, { name: names.eventsStream, subjects: [names.eventsSubjects], maxAgeMs: 7 * day, replicas });
  await ensureStream(jsm, { name: names.metricsStream, subjects: [names.metricsSubjects], maxAgeMs: day, replicas });
  await ensureStream(jsm, {
    name: names.signalsStream,
    subjects: [names.signalsSubjects],
    maxAgeMs: 7 * day,
    replicas,
  });
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
