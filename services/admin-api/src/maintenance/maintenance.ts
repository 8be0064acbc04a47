import { MaintenanceSettings } from '@bunting/contracts';
import { DomainError } from '@bunting/platform';
import { jsonSetting } from '../settings/json-setting.ts';

/** While on, configuration cannot be changed (see isBlockedWrite). */
const maintenanceSetting = jsonSetting('maintenance.mode', MaintenanceSettings, { enabled: false });
export const loadMaintenance = maintenanceSetting.load;
export const saveMaintenance = maintenanceSetting.save;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Reads stay open, and so does the switch itself and signing in and out. */
// The MCP endpoint itself is open: each tool's own API call is checked.
const ALWAYS_OPEN = [
  '/api/admin/maintenance',
  '/api/admin/mcp',
  '/api/admin/playground',
  '/api/admin/constraints/validate',
  '/api/admin/features-batch/validate',
];

/** Whether a request would change configuration; those are refused while maintenance mode is on. */
export function isBlockedWrite(method: string, url: string): boolean {
  if (!WRITES.has(method) || !url.startsWith('/api/admin/')) return false;
  const path = url.split('?')[0]!;
  return !ALWAYS_OPEN.some((open) => path === open || path.startsWith(`${open}/`)) && !path.endsWith('/validate');
}

export function maintenanceError() {
  return new DomainError(
    503,
    'ServiceUnavailableError',
    'Bunting is in maintenance mode: configuration cannot be changed until an admin turns it off.',
  );
}
