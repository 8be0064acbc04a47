import type { FastifyPluginAsync } from 'fastify';
import type { Infrastructure } from '@bunting/platform';
import { adminApi } from '@bunting/admin-api/app';
import { eventLog } from '@bunting/event-log/app';
import { frontendApi } from '@bunting/frontend-api/app';
import { insights } from '@bunting/insights/app';
import { signalsService } from '@bunting/signals/app';

/** Every service the launcher can mount, in the order they start when several share a process. */
export const SERVICES = {
  'admin-api': (infrastructure: Infrastructure) => adminApi(infrastructure),
  'event-log': (infrastructure: Infrastructure) => eventLog(infrastructure),
  'frontend-api': (infrastructure: Infrastructure) => frontendApi(infrastructure),
  signals: (infrastructure: Infrastructure) => signalsService(infrastructure),
  insights: (infrastructure: Infrastructure) => insights(infrastructure),
} satisfies Record<string, (infrastructure: Infrastructure) => FastifyPluginAsync>;

export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

/** "all" or a comma-separated list of service names. */
export function parseTargets(target: string): ServiceName[] {
  if (target === 'all') return SERVICE_NAMES;
  const names = target.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!(name in SERVICES)) throw new Error(`Unknown target "${name}"; expected all or one of ${SERVICE_NAMES.join(', ')}`);
  }
  return names as ServiceName[];
}
