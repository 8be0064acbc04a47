import { UiConfig, NoContent, SetCors } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { checkOrigins, frontendSettings } from './frontend-origins.ts';
import { loadMaintenance } from '../maintenance/maintenance.ts';
import { signInMethodsEnabled } from '../sign-in/sign-in-methods.ts';
import { BUNTING_VERSION } from '../version.ts';

/** The Unleash server version whose API Bunting answers as; tools read `version` to decide what they may call. */
const UNLEASH_API_VERSION = '8.2.0';

/** How long the most sessions of one user is kept before it is counted again. */
const SESSION_COUNT_TTL_MS = 60_000;

export function uiConfigRoutes(
  app: HttpServer,
  { db, config, changes, sessions }: Pick<AdminDeps, 'db' | 'config' | 'changes' | 'sessions'>,
) {
  let sessionCount: { value: Promise<number>; at: number } | null = null;
  const maxSessionsCount = () => {
    if (!sessionCount || Date.now() - sessionCount.at > SESSION_COUNT_TTL_MS) {
      sessionCount = { value: sessions.mostSessionsOfOneUser().catch(() => 0), at: Date.now() };
    }
    return sessionCount.value;
  };
  app.get(
    '/api/admin/ui-config',
    {
      schema: {
        summary: "The console's configuration: version, sign-in, flags it shows, CORS origins",
        response: { 200: UiConfig },
      },
    },
    async (request) => {
      allowRead(request);
      const [signIn, maintenance, frontend, mostSessions] = await Promise.all([
        signInMethodsEnabled(db),
        loadMaintenance(db),
        frontendSettings.load(db),
        maxSessionsCount(),
      ]);
      const origins = frontend.frontendApiOrigins ?? config.frontendApiOrigins;
      return {
        name: 'Bunting',
        slogan: 'Unleash-compatible feature flags, built as services.',
        version: UNLEASH_API_VERSION,
        unleashUrl: config.baseUrl,
        baseUriPath: '',
        // As Unleash's open-source edition says it: its UI then asks only for what that edition serves (an enterprise
        // version here makes it ask for licence checks and access requests Bunting has no use for). Bunting's own
        // console shows what Unleash keeps for its enterprise plan (change requests, signals, insights).
        authenticationType: 'open-source',
        disablePasswordAuth: !signIn.password,
        oidcConfiguredThroughEnv: false,
        samlConfiguredThroughEnv: false,
        emailEnabled: config.email !== null,
        maintenanceMode: maintenance.enabled,
        maxSessionsCount: mostSessions,
        frontendApiOrigins: origins.length > 0 ? origins : ['*'],
        flags: { oidcEnabled: signIn.oidc === true },
        links: [],
        versionInfo: {
          current: { oss: UNLEASH_API_VERSION },
          latest: {},
          isLatest: true,
          bunting: BUNTING_VERSION,
        },
      };
    },
  );

  // Sets the origins the frontend API allows by CORS; every frontend-api replica takes them up within a second.
  app.post(
    '/api/admin/ui-config/cors',
    {
      schema: {
        summary: 'Set the origins the frontend API answers browsers from',
        body: SetCors,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      const frontendApiOrigins = checkOrigins(request.body.frontendApiOrigins);
      await changes.run(principal, (change) => frontendSettings.save(change, { frontendApiOrigins }));
      return reply.code(204).send();
    },
  );
}
