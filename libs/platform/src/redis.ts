import type { Redis } from 'ioredis';
import type { Logger } from './logger.ts';

export type { Redis };

/** How long a Redis command may take before it fails (and the request answers 503) instead of waiting out a stall. */
const COMMAND_TIMEOUT_MS = 1000;

/**
 * Connects to Redis, failing if it cannot be reached now (the caller retries). Afterwards ioredis reconnects on its
 * own; meanwhile commands fail fast rather than queue, and a connection error is logged, never thrown at the process.
 */
export async function connectRedis(
  url: string,
  log?: Logger,
  sentinel?: { sentinels: { host: string; port: number }[]; name: string },
): Promise<Redis> {
  const options = {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableReadyCheck: true,
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
  };
  // Loaded on first use: a process that never connects (a standalone edge without EDGE_REDIS_URL) does not carry it.
  const { Redis } = await import('ioredis');
  // With Sentinel the URL still gives the password and database, if any; the master's address comes from the sentinels.
  const redis = sentinel
    ? new Redis({ ...options, sentinels: sentinel.sentinels, name: sentinel.name, ...passwordAndDb(url) })
    : new Redis(url, options);
  let lastLogged = 0;
  redis.on('error', (error: Error) => {
    // Every reconnect attempt reports again; one line every 10 s says enough.
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    log?.warn({ reason: error.message }, 'Redis is unavailable; retrying');
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  await redis.quit().catch(() => redis.disconnect());
}

function passwordAndDb(url: string): { password?: string; db?: number } {
  try {
    const parsed = new URL(url);
    const db = Number(parsed.pathname.slice(1));
    return {
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    };
  } catch {
    return {};
  }
}
