import { MaintenanceView, NoContent, MaintenanceSettings } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { loadMaintenance, saveMaintenance } from './maintenance.ts';

export function maintenanceRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/maintenance',
    { schema: { summary: 'Whether maintenance mode is on', response: { 200: MaintenanceView } } },
    async (request) => {
      allowRead(request);
      return loadMaintenance(db);
    },
  );

  app.post(
    '/api/admin/maintenance',
    { schema: { summary: 'Turn maintenance mode on or off', body: MaintenanceSettings, response: { 204: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, (change) => saveMaintenance(change, request.body));
      return reply.code(204).send();
    },
  );
}
