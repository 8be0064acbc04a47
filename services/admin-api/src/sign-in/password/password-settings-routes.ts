import { SimpleAuthSettingsView, SimpleAuthSettings } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../../app-deps.ts';
import { allow } from '../../access/guard.ts';
import { loadPasswordSettings, savePasswordSettings } from './password-settings.ts';

/** The switch that turns password sign-in off, for admins. */
export function passwordSettingsRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/auth/simple/settings',
    { schema: { summary: 'Whether password sign-in is turned off', response: { 200: SimpleAuthSettingsView } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return loadPasswordSettings(db);
    },
  );

  app.post(
    '/api/admin/auth/simple/settings',
    {
      schema: {
        summary: 'Turn password sign-in on or off',
        body: SimpleAuthSettings,
        response: { 200: SimpleAuthSettingsView },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) => savePasswordSettings(change, request.body));
    },
  );
}
