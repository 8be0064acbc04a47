import { SamlSettingsInput, SamlSettingsView } from '@bunting/contracts';
import { Permission, ValidationError, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../../app-deps.ts';
import { allow } from '../../access/guard.ts';
import { roleReadModel } from '../../roles/role-read-model.ts';
import { readIdpMetadata } from './idp-metadata.ts';
import { certificateBody, loadSamlSettings, saveSamlSettings, serviceProvider } from './saml-settings.ts';

/** The SAML 2.0 settings (Unleash's path), with what the identity provider needs to know of Bunting. */
export function samlSettingsRoutes(
  app: HttpServer,
  { db, changes, config }: Pick<AdminDeps, 'db' | 'changes' | 'config'>,
) {
  app.get(
    '/api/admin/auth/saml/settings',
    {
      schema: {
        summary: "SAML 2.0 sign-in settings, and this service provider's entity id and addresses",
        response: { 200: SamlSettingsView },
      },
    },
    async (request) => {
      allow(request, Permission.ADMIN);
      return { ...(await loadSamlSettings(db)), ...serviceProvider(config.baseUrl) };
    },
  );

  app.post(
    '/api/admin/auth/saml/settings',
    {
      schema: {
        summary: 'Change the SAML 2.0 sign-in settings',
        body: SamlSettingsInput,
        response: { 200: SamlSettingsView },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      const { idpMetadata, ...given } = request.body;
      const input = {
        ...(idpMetadata ? readIdpMetadata(idpMetadata) : {}),
        ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined && value !== '')),
      } as typeof given;
      if (idpMetadata && !readIdpMetadata(idpMetadata).entityId)
        throw ValidationError.field('idpMetadata', 'is not SAML metadata: it names no entityID');
      if (input.enabled) {
        for (const field of ['entityId', 'signOnUrl', 'certificate'] as const) {
          if (!input[field]) throw ValidationError.field(field, 'is required to enable SAML');
        }
      }
      if (input.certificate && !/^[A-Za-z0-9+/=]{100,}$/.test(certificateBody(input.certificate))) {
        throw ValidationError.field(
          'certificate',
          "is not a certificate: give the identity provider's signing certificate, PEM or base64",
        );
      }
      if (input.defaultRootRoleId !== undefined)
        await roleReadModel.requireRootRole(db, input.defaultRootRoleId, 'defaultRootRoleId');
      const saved = await changes.run(principal, (change) => saveSamlSettings(change, input));
      return { ...saved, ...serviceProvider(config.baseUrl) };
    },
  );
}
