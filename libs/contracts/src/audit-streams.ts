import { z } from 'zod';

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2000);
const Flag = z.enum(['true', 'false']).optional();
const Headers = z.string().max(5000).optional();
/** Every audit destination: whether the sign-in history goes there too ('true' unless 'false'). */
const SignIns = { signIns: z.enum(['true', 'false']).optional() };

/** Splunk's HTTP Event Collector: its base address (…:8088) and a HEC token. */
export const SplunkHecParameters = z.object({
  url: HttpUrl,
  token: z.string().min(1).max(2000),
  index: z.string().max(200).optional(),
  sourcetype: z.string().max(200).optional(),
  source: z.string().max(200).optional(),
  customHeaders: Headers,
  ...SignIns,
});

export const DATADOG_SITES = [
  'datadoghq.com',
  'us3.datadoghq.com',
  'us5.datadoghq.com',
  'datadoghq.eu',
  'ap1.datadoghq.com',
  'ddog-gov.com',
] as const;

/** Datadog Logs (the v2 intake): a site, an API key, and an intake address only behind a proxy. */
export const DatadogLogsParameters = z.object({
  site: z.enum(DATADOG_SITES).optional(),
  apiKey: z.string().min(1).max(2000),
  url: HttpUrl.optional(),
  service: z.string().max(200).optional(),
  tags: z.string().max(2000).optional(),
  ...SignIns,
});

/** Syslog (RFC 5424, octet counting, RFC 6587) over TLS, each record as CEF or JSON. */
export const SyslogParameters = z.object({
  host: z.string().min(1).max(255),
  port: z.coerce.number().int().min(1).max(65_535),
  format: z.enum(['cef', 'json']).optional(),
  tls: Flag,
  caCertificate: z.string().max(20_000).optional(),
  appName: z
    .string()
    .regex(/^[\x21-\x7e]{1,48}$/, 'printable ASCII without spaces, at most 48 characters')
    .optional(),
  ...SignIns,
});

/** OCSF JSON to an HTTPS endpoint (a security data lake's or a collector's). */
export const OcsfParameters = z.object({
  url: HttpUrl,
  authorization: z.string().max(2000).optional(),
  customHeaders: Headers,
  ...SignIns,
});

/** A webhook that signs every body (HMAC-SHA256) with a shared secret and a timestamp. */
export const SignedWebhookParameters = z.object({
  url: HttpUrl,
  secret: z.string().min(16, 'at least 16 characters').max(500),
  customHeaders: Headers,
  ...SignIns,
});

/** GET /api/admin/addons/:id/audit-status: where an audit destination's delivery stands. */
export const AuditDeliveryStatus = z.object({
  id: z.number().int(),
  provider: z.string(),
  enabled: z.boolean(),
  /** False once deliveries have failed for a while (the console and Prometheus say so). */
  healthy: z.boolean(),
  /** The last event stream sequence delivered (0: none yet). */
  position: z.number().int(),
  /** Events in the stream after the position, whether or not this destination wants them. */
  pending: z.number().int(),
  /** Age of the oldest event not yet delivered, in seconds (0 when caught up). */
  lagSeconds: z.number(),
  delivered: z.number().int(),
  failures: z.number().int(),
  lastError: z.string().nullable(),
  failingSince: z.string().nullable(),
  lastDeliveredAt: z.string().nullable(),
  /** Events the stream no longer held when the destination came to them (beyond its retention). */
  missed: z.number().int(),
});
export type AuditDeliveryStatus = z.infer<typeof AuditDeliveryStatus>;

/** POST /api/admin/addons/:id/audit-replay: deliver again everything from a time on. */
export const AuditReplayInput = z.union([
  z.object({ from: z.iso.datetime({ offset: true }) }).strict(),
  /** An event's id in the log (/api/admin/events) or its uuid (the id audit receivers get). */
  z.object({ fromEvent: z.union([z.number().int().min(1), z.uuid()]) }).strict(),
]);

export const ACCESS_METHODS = [
  'password',
  'oidc',
  'saml',
  'scim',
  'oauth',
  'personal-access-token',
  'api-token',
  'agent-token',
] as const;
export const AccessMethod = z.enum(ACCESS_METHODS);
export type AccessMethod = z.infer<typeof AccessMethod>;

/** What happened: a sign-in, an account deactivated, a credential granted or created, a revoked one used. */
export const AccessAction = z.enum(['sign-in', 'deactivated', 'granted', 'created', 'revoked-use']);
export type AccessAction = z.infer<typeof AccessAction>;

/** One entry of the sign-in history. */
export const AccessEntry = z.object({
  id: z.number().int(),
  uuid: z.string(),
  at: z.string(),
  userId: z.number().int().nullable(),
  /** The name as typed or as the provider gave it (an unknown user has only this). */
  name: z.string().nullable(),
  method: AccessMethod,
  action: AccessAction,
  outcome: z.enum(['success', 'failure']),
  /** Why it failed, or what was granted (the agent's client, the token's name). */
  detail: z.string().nullable(),
  address: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type AccessEntry = z.infer<typeof AccessEntry>;

/** GET /api/admin/access-history: filters, newest first. */
export const AccessHistoryQuery = z.object({
  user: z.string().max(255).optional(),
  method: AccessMethod.optional(),
  action: AccessAction.optional(),
  outcome: z.enum(['success', 'failure']).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type AccessHistoryQuery = z.infer<typeof AccessHistoryQuery>;

export const AccessHistory = z.object({ entries: z.array(AccessEntry).readonly(), total: z.number().int() });
