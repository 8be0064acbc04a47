import { z } from 'zod';
import { DomainError, sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';

export const MAINTENANCE_SETTING = 'maintenance.mode';
export const MaintenanceSettings = z.object({ enabled: z.boolean() });
export type MaintenanceSettings = z.infer<typeof MaintenanceSettings>;

export async function loadMaintenance(db: Queryable): Promise<MaintenanceSettings> {
  const content = await db.maybeOneFirst(sql.type(z.object({ content: z.unknown() }))`
    select content from admin.settings where name = ${MAINTENANCE_SETTING}`);
  const parsed = MaintenanceSettings.safeParse(content);
  return parsed.success ? parsed.data : { enabled: false };
}

export async function saveMaintenance({ tx, emit }: Change, next: MaintenanceSettings): Promise<void> {
  const before = await loadMaintenance(tx);
  if (before.enabled === next.enabled) return;
  const existed = await tx.exists(sql.unsafe`select 1 from admin.settings where name = ${MAINTENANCE_SETTING}`);
  await tx.query(sql.unsafe`insert into admin.settings (name, content) values (${MAINTENANCE_SETTING}, ${sql.jsonb(next)})
    on conflict (name) do update set content = excluded.content, updated_at = now()`);
  emit({
    type: existed ? 'setting-updated' : 'setting-created',
    data: { id: MAINTENANCE_SETTING, ...next },
    preData: existed ? { id: MAINTENANCE_SETTING, ...before } : null,
  });
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Reads stay open, and so does the switch itself and signing in and out. */
const ALWAYS_OPEN = ['/api/admin/maintenance', '/api/admin/playground', '/api/admin/constraints/validate', '/api/admin/features-batch/validate'];

/** Whether a request would change configuration; those are refused while maintenance mode is on. */
export function isBlockedWrite(method: string, url: string): boolean {
  if (!WRITES.has(method) || !url.startsWith('/api/admin/')) return false;
  const path = url.split('?')[0]!;
  return !ALWAYS_OPEN.some((open) => path === open || path.startsWith(`${open}/`)) && !path.endsWith('/validate');
}

export function maintenanceError() {
  return new DomainError(503, 'ServiceUnavailableError', 'Bunting is in maintenance mode: configuration cannot be changed until an admin turns it off.');
}
