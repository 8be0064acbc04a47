import { OidcSettingsView, OidcSettingsInput } from '@bunting/contracts';
import { Permission, ValidationError, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../../app-deps.ts';
import { allow } from '../../access/guard.ts';
import { roleReadModel } from '../../roles/role-read-model.ts';
import { loadOidcSettings, publicOidcSettings, saveOidcSettings } from './oidc-settings.ts';

/** The OpenID Connect settings, for admins (the client secret is never shown). */
export function oidcSettingsRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/auth/oidc/settings',
    { schema: { summary: 'OpenID Connect sign-in settings (the secret masked)', response: { 200: OidcSettingsView } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return publicOidcSettings(await loadOidcSettings(db));
    },
  );

  app.post(
    '/api/admin/auth/oidc/settings',
    {
      schema: {
        summary: 'Change the OpenID Connect sign-in settings',
        body: OidcSettingsInput,
        response: { 200: OidcSettingsView },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      if (request.body.enabled && (!request.body.discoverUrl || !request.body.clientId)) {
        throw ValidationError.field(
          request.body.discoverUrl ? 'clientId' : 'discoverUrl',
          'is required to enable OpenID Connect',
        );
      }
      if (request.body.defaultRootRoleId !== undefined)
        await roleReadModel.requireRootRole(db, request.body.defaultRootRoleId, 'defaultRootRoleId');
      return changes.run(principal, (change) => saveOidcSettings(change, request.body));
    },
  );
}
