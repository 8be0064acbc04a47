/** Settings every service reads from the environment, with defaults that work on a developer machine. */
export type PlatformConfig = {
  databaseUrl: string;
  natsUrl: string;
  redisUrl: string;
  port: number;
  host: string;
  /** Prefix of every NATS stream and subject and every Redis key, so deployments and test files never collide. */
  namespace: string;
  logLevel: string;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
};

export type Env = Record<string, string | undefined>;

export function readPlatformConfig(env: Env = process.env): PlatformConfig {
  return {
    databaseUrl: env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/bunting',
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    port: readInteger(env.PORT, 4242, 'PORT'),
    host: env.HOST ?? '0.0.0.0',
    namespace: env.BUNTING_NAMESPACE ?? 'bunting',
    logLevel: env.LOG_LEVEL ?? 'info',
    bodyLimit: readInteger(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
  };
}

export function readInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

export function readBoolean(raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

export function readList(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
}
