import type { AuditDestination } from './destinations/destination.ts';
import { datadogLogsDestination } from './destinations/datadog-logs.ts';
import { ocsfDestination } from './destinations/ocsf.ts';
import { signedWebhookDestination } from './destinations/signed-webhook.ts';
import { splunkHecDestination } from './destinations/splunk-hec.ts';
import { syslogDestination } from './destinations/syslog.ts';

/** The audit destinations, by the provider name their integrations are saved with. */
export const AUDIT_DESTINATIONS: Record<string, AuditDestination> = Object.fromEntries(
  [splunkHecDestination, datadogLogsDestination, syslogDestination, ocsfDestination, signedWebhookDestination].map(
    (destination) => [destination.definition.name, destination],
  ),
);

export const auditDestinationNamed = (name: string): AuditDestination | undefined =>
  Object.hasOwn(AUDIT_DESTINATIONS, name) ? AUDIT_DESTINATIONS[name] : undefined;
