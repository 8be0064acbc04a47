import { fileURLToPath } from 'node:url';
import { readBoolean, readInteger, readList, type Env } from '@bunting/platform';
import { readEmailSettings, type EmailSettings } from './email/email-settings.ts';
import { readPasswordHashing, type PasswordHashing } from './users/passwords.ts';

export type AdminConfig = {
  initAdminTokens: string[];
  initClientTokens: string[];
  initFrontendTokens: string[];
  /** Environments that cannot be deleted. */
  protectedEnvironments: string[];
  /** Public address of this installation, used in links (invites, OIDC callback). */
  baseUrl: string;
  /** Whether the address was configured; if not, OIDC callbacks use the address the browser came in on. */
  baseUrlConfigured: boolean;
  /** The first admin user, created on a fresh install unless disabled. */
  defaultAdmin: { username: string; password: string } | null;
  /** How often flags are checked for having outlived their type's lifetime. */
  potentiallyStaleCheckMs: number;
  /** Reminders of stale flags and of flags that look safe to remove: how often to look, and the rules. */
  cleanupNotices: { checkMs: number; unusedDays: number; periodDays: number };
  /** The body limit of features-batch/import and /validate. */
  importBodyLimit: number;
  /** The deployment's CORS origins for the frontend API, shown by ui-config until an admin sets others. */
  frontendApiOrigins: string[];
  /** How often scheduled change requests are looked for (each replica looks; each request is applied once). */
  changeRequestSchedulerMs: number;
  /** Where the built web console is (console/dist), or null to serve none (CONSOLE_DIR=off). */
  consoleDir: string | null;
  /** How often due milestone progressions are looked for (each replica looks; each runs once). */
  progressionSchedulerMs: number;
  /** What a progression's minute lasts: a minute, shortened only by tests that cannot wait for one. */
  progressionMinuteMs: number;
  /** How often each safeguard reads its metric (once an interval across replicas). */
  safeguardEvaluationMs: number;
  /** How long a guardrail lets SDKs pick up a new split before it starts counting (their refresh and metrics). */
  guardrailSettleMs: number;
  /**
   * Audit destinations: how often replicas share them out, how long a lease holds, the longest retry wait, and how
   * long deliveries fail before a destination shows as unhealthy.
   */
  auditDelivery: { tickMs: number; leaseMs: number; maxRetryDelayMs: number; unhealthyAfterMs: number };
  /** How long sign-in history is kept (ACCESS_HISTORY_RETENTION_DAYS), and how often older entries are deleted. */
  accessHistory: { retentionDays: number; purgeEveryMs: number };
  /** Slack's Web API, where the Slack app integration posts (another address only for a stand-in). */
  slackApiUrl: string;
  /**
   * Where the MCP server asks for routes other services serve (split deployments: the ingress, as seen from
   * admin-api); null when everything runs in this process.
   */
  mcpApiUrl: string | null;
  /**
   * Host names (with or without a port) the MCP server and the OAuth endpoints answer besides loopback and the
   * public address's own (ALLOWED_HOSTS): any other Host header may be a DNS rebinding attack.
   */
  allowedHosts: string[];
  /** Browser origins allowed to call the MCP server besides the public address's (MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins: string[];
  /** Clients one address may register with the OAuth endpoint in 10 minutes (OAUTH_REGISTRATIONS_PER_ADDRESS). */
  oauthRegistrationsPerAddress: number;
  /** URI schemes of native apps an MCP client may be sent back to besides reverse-domain ones (MCP_REDIRECT_SCHEMES). */
  mcpRedirectSchemes: string[];
  /** How often each replica looks for feed scopes whose hydration is missing or old (FEED_HYDRATION_CHECK_MS). */
  feedHydrationCheckMs: number;
  /** The SMTP server mail goes through (EMAIL_HOST and the rest), or null: links are then shown to copy. */
  email: EmailSettings | null;
  /** Argon2id's cost for new password hashes (PASSWORD_HASHING). */
  passwordHashing: PasswordHashing;
};

const BUILT_CONSOLE = fileURLToPath(new URL('../../../console/dist', import.meta.url));

export function readAdminConfig(env: Env = process.env): AdminConfig {
  return {
    initAdminTokens: readList(env.INIT_ADMIN_API_TOKENS),
    // Unleash renamed client tokens to backend tokens and still reads the old name when the new one is unset.
    initClientTokens: readList(env.INIT_BACKEND_API_TOKENS ?? env.INIT_CLIENT_API_TOKENS),
    initFrontendTokens: readList(env.INIT_FRONTEND_API_TOKENS),
    protectedEnvironments: readList(env.PROTECTED_ENVIRONMENTS),
    baseUrl: env.UNLEASH_URL ?? env.BUNTING_URL ?? `http://localhost:${env.PORT ?? 4242}`,
    baseUrlConfigured: (env.UNLEASH_URL ?? env.BUNTING_URL) !== undefined,
    defaultAdmin: readBoolean(env.DISABLE_DEFAULT_ADMIN_USER, false)
      ? null
      : {
          username: env.UNLEASH_DEFAULT_ADMIN_USERNAME ?? 'admin',
          password: env.UNLEASH_DEFAULT_ADMIN_PASSWORD ?? 'unleash4all',
        },
    frontendApiOrigins: readList(env.FRONTEND_API_ORIGINS ?? env.UNLEASH_FRONTEND_API_ORIGINS),
    changeRequestSchedulerMs: Math.min(
      3_600_000,
      Math.max(50, readInteger(env.CHANGE_REQUEST_SCHEDULER_MS, 1_000, 'CHANGE_REQUEST_SCHEDULER_MS')),
    ),
    consoleDir: env.CONSOLE_DIR === 'off' ? null : (env.CONSOLE_DIR ?? BUILT_CONSOLE),
    progressionSchedulerMs: Math.min(
      60_000,
      Math.max(50, readInteger(env.PROGRESSION_SCHEDULER_MS, 1_000, 'PROGRESSION_SCHEDULER_MS')),
    ),
    progressionMinuteMs: Math.min(
      60_000,
      Math.max(100, readInteger(env.RELEASE_PLAN_MINUTE_MS, 60_000, 'RELEASE_PLAN_MINUTE_MS')),
    ),
    slackApiUrl: env.SLACK_API_URL ?? 'https://slack.com/api',
    mcpApiUrl: env.MCP_API_URL ?? env.UNLEASH_URL ?? env.BUNTING_URL ?? null,
    email: readEmailSettings(env),
    passwordHashing: readPasswordHashing(env.PASSWORD_HASHING),
    feedHydrationCheckMs: Math.max(100, readInteger(env.FEED_HYDRATION_CHECK_MS, 60_000, 'FEED_HYDRATION_CHECK_MS')),
    allowedHosts: readList(env.ALLOWED_HOSTS).map((host) => host.toLowerCase()),
    mcpAllowedOrigins: readList(env.MCP_ALLOWED_ORIGINS).map((origin) => origin.replace(/\/+$/, '').toLowerCase()),
    oauthRegistrationsPerAddress: Math.max(
      1,
      readInteger(env.OAUTH_REGISTRATIONS_PER_ADDRESS, 10, 'OAUTH_REGISTRATIONS_PER_ADDRESS'),
    ),
    mcpRedirectSchemes: readList(env.MCP_REDIRECT_SCHEMES).map((scheme) => scheme.replace(/:.*$/, '').toLowerCase()),
    safeguardEvaluationMs: Math.min(
      600_000,
      Math.max(200, readInteger(env.SAFEGUARD_EVALUATION_MS, 5_000, 'SAFEGUARD_EVALUATION_MS')),
    ),
    guardrailSettleMs: Math.min(
      3_600_000,
      Math.max(0, readInteger(env.GUARDRAIL_SETTLE_MS, 120_000, 'GUARDRAIL_SETTLE_MS')),
    ),
    accessHistory: {
      retentionDays: Math.min(
        3650,
        Math.max(1, readInteger(env.ACCESS_HISTORY_RETENTION_DAYS, 90, 'ACCESS_HISTORY_RETENTION_DAYS')),
      ),
      purgeEveryMs: Math.min(
        86_400_000,
        Math.max(100, readInteger(env.ACCESS_HISTORY_PURGE_MS, 3_600_000, 'ACCESS_HISTORY_PURGE_MS')),
      ),
    },
    auditDelivery: {
      tickMs: Math.min(60_000, Math.max(100, readInteger(env.AUDIT_DELIVERY_TICK_MS, 5_000, 'AUDIT_DELIVERY_TICK_MS'))),
      leaseMs: Math.min(
        600_000,
        Math.max(500, readInteger(env.AUDIT_DELIVERY_LEASE_MS, 20_000, 'AUDIT_DELIVERY_LEASE_MS')),
      ),
      maxRetryDelayMs: Math.min(
        3_600_000,
        Math.max(100, readInteger(env.AUDIT_DELIVERY_MAX_RETRY_MS, 30_000, 'AUDIT_DELIVERY_MAX_RETRY_MS')),
      ),
      unhealthyAfterMs: Math.min(
        86_400_000,
        Math.max(0, readInteger(env.AUDIT_DELIVERY_UNHEALTHY_AFTER_MS, 60_000, 'AUDIT_DELIVERY_UNHEALTHY_AFTER_MS')),
      ),
    },
    // An export of thousands of flags is several megabytes; other bodies keep the server-wide limit.
    importBodyLimit: Math.max(
      1024,
      readInteger(env.IMPORT_BODY_LIMIT_BYTES, 32 * 1024 * 1024, 'IMPORT_BODY_LIMIT_BYTES'),
    ),
    potentiallyStaleCheckMs: Math.min(
      2 ** 31 - 1,
      Math.max(100, readInteger(env.POTENTIALLY_STALE_CHECK_MS, 3_600_000, 'POTENTIALLY_STALE_CHECK_MS')),
    ),
    cleanupNotices: {
      checkMs: Math.min(
        2 ** 31 - 1,
        Math.max(100, readInteger(env.CLEANUP_NOTICE_CHECK_MS, 3_600_000, 'CLEANUP_NOTICE_CHECK_MS')),
      ),
      unusedDays: Math.min(
        3650,
        Math.max(0, readInteger(env.CLEANUP_NOTICE_UNUSED_DAYS, 30, 'CLEANUP_NOTICE_UNUSED_DAYS')),
      ),
      periodDays: Math.min(
        3650,
        Math.max(1, readInteger(env.CLEANUP_NOTICE_PERIOD_DAYS, 7, 'CLEANUP_NOTICE_PERIOD_DAYS')),
      ),
    },
  };
}
