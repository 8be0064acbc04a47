import { readFileSync } from 'node:fs';
import { readList, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { loadOidcSettings } from '../auth/oidc-settings.ts';
import { loadSimpleAuthSettings } from '../auth/simple-auth-settings.ts';
import { loadMaintenance } from '../maintenance/maintenance.ts';

/** The Unleash server version whose API Bunting answers as; tools read `version` to decide what they may call. */
const UNLEASH_API_VERSION = '8.2.0';
const { version: buntingVersion } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

export function uiConfigRoutes(app: HttpServer, { db, config }: AdminDeps) {
  app.get('/api/admin/ui-config', async (request) => {
    allowRead(request);
    const [simple, oidc, maintenance] = await Promise.all([loadSimpleAuthSettings(db), loadOidcSettings(db), loadMaintenance(db)]);
    const origins = readList(process.env.FRONTEND_API_ORIGINS ?? process.env.UNLEASH_FRONTEND_API_ORIGINS);
    return {
      name: 'Bunting',
      slogan: 'Unleash-compatible feature flags, built as services.',
      version: UNLEASH_API_VERSION,
      unleashUrl: config.baseUrl,
      baseUriPath: '',
      // What Unleash keeps for its enterprise plan (OIDC, groups, signals, insights) is here, so the UI may show it.
      authenticationType: 'enterprise',
      disablePasswordAuth: simple.disabled,
      oidcConfiguredThroughEnv: false,
      samlConfiguredThroughEnv: false,
      emailEnabled: false,
      maintenanceMode: maintenance.enabled,
      frontendApiOrigins: origins.length > 0 ? origins : ['*'],
      flags: { oidcEnabled: oidc.enabled === true },
      links: [],
      versionInfo: {
        current: { oss: UNLEASH_API_VERSION, enterprise: UNLEASH_API_VERSION },
        latest: {},
        isLatest: true,
        bunting: buntingVersion,
      },
    };
  });
}
