import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { DomainEvent, MetricsMessage } from '@bunting/contracts';
import {
  authenticate,
  createOutbox,
  migrate,
  runDurableConsumer,
  startRelay,
  type CredentialVerifier,
  type HttpServer,
  type Infrastructure,
} from '@bunting/platform';
import { readAdminConfig, type AdminConfig } from './admin-config.ts';
import type { AdminDeps } from './app-deps.ts';
import { answerCredentialRequests } from './access/credential-responder.ts';
import { createSessionStore } from './access/sessions.ts';
import { createLoginGuard } from './auth/login-guard.ts';
import { loginRoutes } from './auth/login-routes.ts';
import { oidcRoutes } from './auth/oidc-routes.ts';
import { passwordRoutes } from './auth/password-routes.ts';
import { groupRoutes } from './groups/group-routes.ts';
import { inviteRoutes, publicInviteRoutes } from './invites/invite-routes.ts';
import { patRoutes } from './personal-access-tokens/pat-routes.ts';
import { projectAccessRoutes } from './project-access/project-access-routes.ts';
import { roleRoutes } from './roles/role-routes.ts';
import { ensureDefaultAdmin } from './users/default-admin.ts';
import { userRoutes } from './users/user-routes.ts';
import { answerSnapshotRequests } from './snapshot/snapshot-responder.ts';
import { answerInsightsRequests } from './insights/insights-responder.ts';
import { answerFrontendSettingsRequests } from './frontend-settings/frontend-settings.ts';
import { recordLastSeen } from './metrics/last-seen.ts';
import { createCredentialService } from './access/credential-service.ts';
import { apiTokenRoutes } from './api-tokens/api-token-routes.ts';
import { apiTokenService } from './api-tokens/api-token-service.ts';
import { contextFieldRoutes } from './context-fields/context-field-routes.ts';
import { dependencyRoutes } from './dependencies/dependency-routes.ts';
import { importRoutes } from './import/import-routes.ts';
import { environmentRoutes } from './environments/environment-routes.ts';
import { environmentStore } from './environments/environment-store.ts';
import { createChanges } from './events/changes.ts';
import { featureRoutes } from './features/feature-routes.ts';
import { startPotentiallyStaleCheck } from './features/potentially-stale-check.ts';
import { projectRoutes } from './projects/project-routes.ts';
import { segmentRoutes } from './segments/segment-routes.ts';
import { strategyDefinitionRoutes } from './strategy-definitions/strategy-definition-routes.ts';
import { strategyRoutes } from './strategies/strategy-routes.ts';
import { tagRoutes } from './tags/tag-routes.ts';
import { variantRoutes } from './variants/variant-routes.ts';
import { constraintRoutes } from './strategies/constraint-routes.ts';
import { edgeRoutes } from './edge/edge-routes.ts';
import { uiConfigRoutes } from './ui-config/ui-config-routes.ts';
import { playgroundRoutes } from './playground/playground-routes.ts';
import { isBlockedWrite, loadMaintenance, maintenanceError } from './maintenance/maintenance.ts';
import { maintenanceRoutes } from './maintenance/maintenance-routes.ts';
import { addonRoutes } from './addons/addon-routes.ts';
import { personalDashboardRoutes } from './personal-dashboard/personal-dashboard-routes.ts';
import { deliverEvent } from './addons/webhook-delivery.ts';

export const ADMIN_SCHEMA = 'admin';
const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * admin-api: the system of record for configuration and identity. Builds from the process's shared
 * connections; every change it makes is written with its events through the outbox of schema "admin".
 */
export function adminApi(infrastructure: Infrastructure, config: AdminConfig = readAdminConfig(infrastructure.env)): FastifyPluginAsync {
  return async (app) => {
    const { db, messaging, log } = infrastructure;
    await migrate({ databaseUrl: infrastructure.config.databaseUrl, schema: ADMIN_SCHEMA, dir: migrationsDir, log });
    await environmentStore.setProtected(db, config.protectedEnvironments);

    const outbox = createOutbox(ADMIN_SCHEMA);
    const changes = createChanges({ db, outbox, messaging });
    const namespace = infrastructure.config.namespace;
    const sessions = createSessionStore(infrastructure.redis, namespace);
    const credentials = createCredentialService({ db, log, sessions });
    const responder = answerCredentialRequests(messaging, credentials);
    const snapshots = answerSnapshotRequests(messaging, db);
    const insights = answerInsightsRequests(messaging, db);
    const frontendSettingsResponder = answerFrontendSettingsRequests(messaging, db);
    // SDK metrics say when each flag was last evaluated, per environment (Feature.lastSeenAt).
    const lastSeen = runDurableConsumer({
      messaging,
      stream: messaging.names.metricsStream,
      durable: messaging.names.consumer('admin_last_seen'),
      filterSubject: messaging.names.metricsSubjects,
      schema: MetricsMessage,
      handle: (message) => recordLastSeen(db, message),
    });
    const relay = startRelay({ schema: ADMIN_SCHEMA, db, databaseUrl: infrastructure.config.databaseUrl, messaging, log });
    await apiTokenService.ensureInitTokens(changes, log, {
      admin: config.initAdminTokens,
      client: config.initClientTokens,
      frontend: config.initFrontendTokens,
    });
    await ensureDefaultAdmin(changes, config.defaultAdmin);
    // Addons (webhooks) get the events they subscribed to, from the stream like every other consumer.
    const addonDeliveries = runDurableConsumer({
      messaging,
      stream: messaging.names.eventsStream,
      durable: messaging.names.consumer('admin_addons'),
      filterSubject: messaging.names.eventsSubjects,
      schema: DomainEvent,
      handle: (event) => deliverEvent(db, event),
    });
    const staleCheck = startPotentiallyStaleCheck(changes, log, config.potentiallyStaleCheckMs);

    // admin-api owns the credentials, so it checks them itself instead of asking itself over NATS.
    const verifier: CredentialVerifier = { verify: (request) => credentials.verify(request), stop: () => undefined };
    const deps: AdminDeps = { db, changes, messaging, redis: infrastructure.redis, log, config, verifier, namespace };
    const loginDeps = { ...deps, sessions, loginGuard: createLoginGuard(infrastructure.redis, namespace) };

    await app.register(async (admin) => {
      const scope = admin as unknown as HttpServer;
      scope.addHook('onRequest', async (request) => {
        if (request.url.startsWith('/api/admin/')) await authenticate(verifier, request);
        if (isBlockedWrite(request.method, request.url) && (await loadMaintenance(db)).enabled) throw maintenanceError();
      });
      for (const routes of [
        environmentRoutes, projectRoutes, featureRoutes, strategyRoutes, variantRoutes, dependencyRoutes,
        tagRoutes, segmentRoutes, contextFieldRoutes, strategyDefinitionRoutes, apiTokenRoutes, userRoutes, patRoutes,
        roleRoutes, groupRoutes, projectAccessRoutes, inviteRoutes, publicInviteRoutes, importRoutes, passwordRoutes,
        constraintRoutes, edgeRoutes, uiConfigRoutes, playgroundRoutes, maintenanceRoutes, addonRoutes,
        personalDashboardRoutes,
      ]) {
        routes(scope, deps);
      }
      loginRoutes(scope, loginDeps);
      oidcRoutes(scope, loginDeps);
    });

    app.addHook('onClose', async () => {
      responder.stop();
      snapshots.stop();
      insights.stop();
      frontendSettingsResponder.stop();
      await lastSeen.stop();
      await staleCheck.stop();
      await addonDeliveries.stop();
      credentials.stop();
      await relay.stop();
    });
  };
}
