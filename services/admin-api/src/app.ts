import type { FastifyRequest } from 'fastify';
import { fileURLToPath } from 'node:url';
import { DomainEvent, ImpactArmsView, ImpactValueView, MetricsMessage } from '@bunting/contracts';
import {
  AuthenticationRequired,
  askView,
  authenticate,
  FEED_MAX_AGE_MS,
  createOutbox,
  migrate,
  runDurableConsumer,
  startRelay,
  type CredentialVerifier,
  type ServicePlugin,
  type ServiceInfrastructure,
  inScope,
} from '@bunting/platform';
import { readAdminConfig, type AdminConfig } from './admin-config.ts';
import type { AdminDeps } from './app-deps.ts';
import { createSessionStore } from './sessions/user-sessions.ts';
import { consoleRoutes } from './console/console-routes.ts';
import { bannerRoutes } from './banners/banner-routes.ts';
import { featureLinkRoutes } from './feature-links/feature-link-routes.ts';
import { experimentRoutes } from './experiments/experiment-routes.ts';
import { projectOverviewRoutes } from './project-overview/project-overview-routes.ts';
import { userAccessRoutes } from './groups/user-access-routes.ts';
import { changeRequestRoutes } from './change-requests/change-request-routes.ts';
import { startChangeRequestScheduler } from './change-requests/change-request-scheduler.ts';
import { changeRequestSearchRoutes } from './change-requests/change-request-search-routes.ts';
import { groupRoutes } from './groups/group-routes.ts';
import { inviteRoutes, publicInviteRoutes } from './invites/invite-routes.ts';
import { patRoutes } from './personal-access-tokens/pat-routes.ts';
import { serviceAccountRoutes } from './personal-access-tokens/service-account-routes.ts';
import { projectAccessRoutes } from './project-access/project-access-routes.ts';
import { roleRoutes } from './roles/role-routes.ts';
import { ensureDefaultAdmin } from './users/default-admin.ts';
import { profileRoutes } from './users/profile-routes.ts';
import { userRoutes } from './users/user-routes.ts';
import { answerPublishedViews } from './published/published-views.ts';
import { recordLastSeen } from './metrics/last-seen.ts';
import { createCredentialService } from './credentials/credential-service.ts';
import { apiTokenRoutes } from './api-tokens/api-token-routes.ts';
import { apiTokenService } from './api-tokens/api-token-service.ts';
import { contextFieldRoutes } from './context-fields/context-field-routes.ts';
import { dependencyRoutes } from './dependencies/dependency-routes.ts';
import { importRoutes } from './import/import-routes.ts';
import { environmentRoutes } from './environments/environment-routes.ts';
import { environmentCloneRoutes } from './environment-clone/environment-clone-routes.ts';
import { environmentService } from './environments/environment-service.ts';
import { combineGates, createChanges } from './events/changes.ts';
import { codeReferenceRoutes } from './code-references/code-reference-routes.ts';
import { startCleanupNotices } from './code-references/cleanup-notices.ts';
import { managedAsCodeGate } from './projects/managed-as-code-gate.ts';
import { managedAsCodeRoutes } from './projects/managed-as-code-routes.ts';
import { unitOfWorkGate } from './change-request-settings/change-request-gate.ts';
import { touchProjects } from './projects/project-activity.ts';
import { archiveRoutes } from './features/archive-routes.ts';
import { featureEnvironmentRoutes } from './features/feature-environment-routes.ts';
import { featureRoutes } from './features/feature-routes.ts';
import { featureSearchRoutes } from './features/feature-search-routes.ts';
import { featureTypeRoutes } from './features/feature-type-routes.ts';
import { lifecycleRoutes } from './features/lifecycle-routes.ts';
import { favoriteRoutes } from './favorites/favorite-routes.ts';
import { splashRoutes } from './splash/splash-routes.ts';
import { feedbackRoutes } from './feedback/feedback-routes.ts';
import { startPotentiallyStaleCheck } from './feature-state/potentially-stale-check.ts';
import { projectEnvironmentRoutes } from './projects/project-environment-routes.ts';
import { projectFavoriteRoutes } from './projects/project-favorite-routes.ts';
import { projectRoutes } from './projects/project-routes.ts';
import { segmentRoutes } from './segments/segment-routes.ts';
import { strategyDefinitionRoutes } from './strategy-definitions/strategy-definition-routes.ts';
import { strategyRoutes } from './strategies/strategy-routes.ts';
import { featureTagRoutes } from './tags/feature-tag-routes.ts';
import { tagRoutes } from './tags/tag-routes.ts';
import { tagTypeRoutes } from './tags/tag-type-routes.ts';
import { variantRoutes } from './variants/variant-routes.ts';
import { constraintRoutes } from './strategies/constraint-routes.ts';
import { edgeRoutes } from './edge/edge-routes.ts';
import { uiConfigRoutes } from './ui-config/ui-config-routes.ts';
import { playgroundRoutes } from './playground/playground-routes.ts';
import { isBlockedWrite, loadMaintenance, maintenanceError } from './maintenance/maintenance.ts';
import { maintenanceRoutes } from './maintenance/maintenance-routes.ts';
import { addonRoutes } from './addons/addon-routes.ts';
import { auditStreamRoutes } from './addons/audit/audit-stream-routes.ts';
import { startAuditDelivery } from './addons/audit/audit-delivery.ts';
import { BUNTING_VERSION } from './version.ts';
import { accessHistoryRoutes } from './access-history/access-history-routes.ts';
import { recordAccessAnswers } from './access-history/access-hook.ts';
import { startAccessPurge } from './access-history/access-purge.ts';
import { personalDashboardRoutes } from './personal-dashboard/personal-dashboard-routes.ts';
import { deliverEvent } from './addons/addon-delivery.ts';
import { signInOptions } from './sign-in/sign-in-options.ts';
import { signInRoutes } from './sign-in/sign-in-routes.ts';
import { releasePlanReactions } from './release-plans/release-plan-reactions.ts';
import { releasePlanRoutes } from './release-plans/release-plan-routes.ts';
import { startProgressionScheduler } from './release-plans/progression-scheduler.ts';
import { proposeGuardedAdvance } from './change-requests/guardrail-proposals.ts';
import { emailOutbox } from './email/email-outbox.ts';
import { manifestRoutes } from './openfeature-manifest/manifest-routes.ts';
import { scimRoutes, scimSettingsRoutes } from './scim/scim-routes.ts';
import { startEmailSender } from './email/email-sender.ts';
import { welcomeMessage } from './email/email-messages.ts';
import { createResetLink } from './sign-in/password/password-reset.ts';
import { userService } from './users/user-service.ts';
import { startSafeguardWatch } from './release-plans/safeguard-watch.ts';
import { releaseTemplateRoutes } from './release-templates/release-template-routes.ts';
import { MCP_PATH, mcpRoutes } from './mcp/mcp-routes.ts';
import { configurationFeed } from './configuration-feed/configuration-feed.ts';
import { startFeedHydrations } from './configuration-feed/feed-hydrations.ts';
import { agentDelegations } from './agent-tokens/agent-delegations.ts';
import { agentTokenRoutes } from './agent-tokens/agent-token-routes.ts';
import { oauthRoutes } from './mcp/oauth-routes.ts';

export const ADMIN_SCHEMA = 'admin';
const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * admin-api: the system of record for configuration and identity. Builds from the process's shared
 * connections; every change it makes is written with its events through the outbox of schema "admin".
 */
export function adminApi(
  infrastructure: ServiceInfrastructure<'db' | 'messaging' | 'redis'>,
  config: AdminConfig = readAdminConfig(infrastructure.env),
): ServicePlugin {
  return async (app) => {
    const { db, messaging, log } = infrastructure;
    await migrate({
      databaseUrl: infrastructure.config.databaseUrl,
      schema: ADMIN_SCHEMA,
      dir: migrationsDir,
      log,
      outbox: true,
    });
    await environmentService.setProtected(db, config.protectedEnvironments);

    const outbox = createOutbox(ADMIN_SCHEMA);
    const changes = createChanges({
      db,
      outbox,
      messaging,
      gate: combineGates([unitOfWorkGate, managedAsCodeGate]),
      touchProjects,
      reactions: [releasePlanReactions],
      publishers: [configurationFeed(messaging.names)],
    });
    const namespace = infrastructure.config.namespace;
    const sessions = createSessionStore(infrastructure.redis, namespace);
    const delegations = agentDelegations(infrastructure.redis, namespace);
    const credentials = createCredentialService({ db, log, sessions, delegations, agentAudience: MCP_PATH });
    const publishedViews = answerPublishedViews({ messaging, db, credentials });
    // SDK metrics say when each flag was last evaluated, per environment (Feature.lastSeenAt).
    const lastSeen = runDurableConsumer({
      messaging,
      metrics: infrastructure.metrics,
      stream: messaging.names.metricsStream,
      durable: messaging.names.consumer('admin_last_seen'),
      filterSubject: messaging.names.metricsSubjects,
      schema: MetricsMessage,
      handle: (message, raw) => recordLastSeen(db, message, raw.seq),
    });
    const relay = startRelay({
      schema: ADMIN_SCHEMA,
      db,
      databaseUrl: infrastructure.config.databaseUrl,
      messaging,
      log,
      metrics: infrastructure.metrics,
    });
    await apiTokenService.ensureInitTokens(changes, log, {
      admin: config.initAdminTokens,
      client: config.initClientTokens,
      frontend: config.initFrontendTokens,
    });
    await ensureDefaultAdmin(changes, config.defaultAdmin, config.passwordHashing);
    const webhookOutcomes = infrastructure.metrics.counter(
      'bunting_webhook_deliveries_total',
      'Webhook (addon) deliveries, by outcome (success, failed, timeout)',
      ['outcome'],
    );
    // Addons (webhooks) get the events they subscribed to, from the stream like every other consumer.
    const addonDeliveries = runDurableConsumer({
      messaging,
      metrics: infrastructure.metrics,
      stream: messaging.names.eventsStream,
      durable: messaging.names.consumer('admin_addons'),
      filterSubject: messaging.names.eventsSubjects,
      schema: DomainEvent,
      handle: (event) =>
        deliverEvent(db, event, { baseUrl: config.baseUrl, slackApiUrl: config.slackApiUrl }, (outcome) =>
          webhookOutcomes.inc({ outcome }),
        ),
    });
    const staleCheck = startPotentiallyStaleCheck(changes, log, config.potentiallyStaleCheckMs);
    // The SDK edges read each environment whole from the feed's stream: every scope gets a hydration before this
    // service starts answering, and again before the stream lets the last one go.
    const hydrations = startFeedHydrations(
      { db, outbox, messaging, log },
      { intervalMs: config.feedHydrationCheckMs, refreshAfterMs: FEED_MAX_AGE_MS / 2 },
    );
    await hydrations.first;
    const scheduler = startChangeRequestScheduler(
      { db, changes, log, metrics: infrastructure.metrics },
      config.changeRequestSchedulerMs,
    );
    const progressions = startProgressionScheduler(
      { db, changes, log, metrics: infrastructure.metrics, proposeAdvance: proposeGuardedAdvance },
      { intervalMs: config.progressionSchedulerMs, minuteMs: config.progressionMinuteMs },
    );
    const safeguards = startSafeguardWatch(
      {
        db,
        changes,
        log,
        metrics: infrastructure.metrics,
        read: (metric) => askView(messaging, ImpactValueView, { ...metric, source: metric.source ?? 'internal' }),
        readArms: (query) => askView(messaging, ImpactArmsView, query),
        guardrailSettleMs: config.guardrailSettleMs,
      },
      config.safeguardEvaluationMs,
    );

    // admin-api owns the credentials, so it checks them itself instead of asking itself over NATS.
    const verifier: CredentialVerifier = { verify: (request) => credentials.verify(request), stop: () => undefined };
    // Mail goes out from the e-mail outbox, written with the change that causes it.
    const mail = emailOutbox(config.email, config.baseUrl);
    const mailer = config.email
      ? startEmailSender({
          db,
          settings: config.email,
          log,
          metrics: infrastructure.metrics,
          onSent: async (sent) => {
            if (sent.kind === 'welcome' && sent.userId !== null) await userService.markEmailSent(db, sent.userId);
          },
        })
      : null;
    const inviteLink: AdminDeps['inviteLink'] = async (change, userId) =>
      (await createResetLink(change, String(userId), config.baseUrl)).resetPasswordUrl;
    const welcome: AdminDeps['welcome'] = async (change, user, link) => {
      if (!mail.enabled || !user.email) return false;
      return mail.queue(
        change,
        welcomeMessage({ email: user.email, userId: user.id, name: user.name }, link, config.baseUrl),
      );
    };
    const deps: AdminDeps = {
      db,
      changes,
      messaging,
      redis: infrastructure.redis,
      log,
      config,
      verifier,
      namespace,
      sessions,
      delegations,
      mail,
      inviteLink,
      welcome,
    };
    const cleanupNotices = startCleanupNotices({ changes, mail, baseUrl: config.baseUrl, log }, config.cleanupNotices);
    // Audit destinations (Splunk, Datadog Logs, syslog, OCSF, signed webhooks) read the event stream whole, in order.
    const auditDelivery = startAuditDelivery(
      {
        db,
        messaging,
        log,
        metrics: infrastructure.metrics,
        context: { host: new URL(config.baseUrl).hostname, version: BUNTING_VERSION },
      },
      config.auditDelivery,
    );
    const accessPurge = startAccessPurge({ db, log }, config.accessHistory);

    await inScope(app, (scope) => {
      // Every admin route (and only those) checks the caller first, and refuses writes in maintenance mode; the
      // sign-in, invite and console routes of this scope are open.
      const adminGuard = async (request: FastifyRequest) => {
        await authenticate(verifier, request).catch(async (error: unknown) => {
          if (!(error instanceof AuthenticationRequired)) throw error;
          throw new AuthenticationRequired(error.message, await signInOptions(db));
        });
        if (isBlockedWrite(request.method, request.url) && (await loadMaintenance(db)).enabled)
          throw maintenanceError();
      };
      scope.addHook('onRoute', (route) => {
        if (!route.url.startsWith('/api/admin/')) return;
        const existing =
          route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
        route.onRequest = [adminGuard, ...existing];
      });
      // Sign-ins and credentials granted are recorded whichever way their request ends.
      recordAccessAnswers(scope, { db, log });
      for (const routes of [
        environmentRoutes,
        environmentCloneRoutes,
        projectRoutes,
        projectEnvironmentRoutes,
        projectFavoriteRoutes,
        managedAsCodeRoutes,
        featureRoutes,
        featureEnvironmentRoutes,
        archiveRoutes,
        lifecycleRoutes,
        featureSearchRoutes,
        featureTypeRoutes,
        favoriteRoutes,
        strategyRoutes,
        variantRoutes,
        dependencyRoutes,
        tagTypeRoutes,
        tagRoutes,
        featureTagRoutes,
        segmentRoutes,
        contextFieldRoutes,
        strategyDefinitionRoutes,
        apiTokenRoutes,
        userRoutes,
        profileRoutes,
        patRoutes,
        serviceAccountRoutes,
        roleRoutes,
        groupRoutes,
        projectAccessRoutes,
        inviteRoutes,
        publicInviteRoutes,
        importRoutes,
        constraintRoutes,
        edgeRoutes,
        uiConfigRoutes,
        playgroundRoutes,
        maintenanceRoutes,
        addonRoutes,
        auditStreamRoutes,
        accessHistoryRoutes,
        personalDashboardRoutes,
        consoleRoutes,
        changeRequestRoutes,
        changeRequestSearchRoutes,
        bannerRoutes,
        featureLinkRoutes,
        codeReferenceRoutes,
        projectOverviewRoutes,
        userAccessRoutes,
        splashRoutes,
        feedbackRoutes,
        releaseTemplateRoutes,
        releasePlanRoutes,
        experimentRoutes,
        mcpRoutes,
        oauthRoutes,
        agentTokenRoutes,
        scimSettingsRoutes,
      ]) {
        routes(scope, deps);
      }
      signInRoutes(scope, deps);
      scimRoutes(scope, deps);
      manifestRoutes(scope, deps);
    });

    app.addHook('onClose', async () => {
      publishedViews.stop();
      await lastSeen.stop();
      await staleCheck.stop();
      await cleanupNotices.stop();
      await auditDelivery.stop();
      await accessPurge.stop();
      await hydrations.stop();
      await scheduler.stop();
      await progressions.stop();
      await safeguards.stop();
      await addonDeliveries.stop();
      await mailer?.stop();
      credentials.stop();
      await relay.stop();
    });
  };
}
