import { hostname } from 'node:os';
import { readBoolean, readList, type Env } from '@bunting/platform';

export type FrontendConfig = {
  /** When false every /api/frontend route answers 404. */
  frontendApiEnabled: boolean;
  /** Whether /api/frontend/all (every flag, off ones included) is served; off unless configured, as it names them all. */
  allEndpointEnabled: boolean;
  /** Origins allowed by CORS on the frontend API; ["*"] allows any. */
  allowedOrigins: string[];
  /** The host name applicationHostname strategies compare with, as the SDK does on the machine it runs on. */
  hostname: string;
  /** How often a replica checks Redis for a newer snapshot it may have missed a notice of. */
  revisionCheckMs: number;
};

export function readFrontendConfig(env: Env = process.env): FrontendConfig {
  const origins = readList(env.FRONTEND_API_ORIGINS ?? env.UNLEASH_FRONTEND_API_ORIGINS);
  return {
    frontendApiEnabled: readBoolean(env.FRONTEND_API_ENABLED, true),
    allEndpointEnabled: readBoolean(env.FRONTEND_API_ALL_ENDPOINT, false),
    allowedOrigins: origins.length > 0 ? origins : ['*'],
    hostname: env.HOSTNAME ?? hostname(),
    revisionCheckMs: Number(env.SNAPSHOT_REVISION_CHECK_MS ?? 2000),
  };
}
