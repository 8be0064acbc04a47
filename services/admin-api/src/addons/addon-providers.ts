import { AUDIT_DESTINATIONS } from './audit/audit-destinations.ts';
import type { AuditDestination } from './audit/destinations/destination.ts';
import { datadogProvider } from './providers/datadog.ts';
import { newRelicProvider } from './providers/new-relic.ts';
import type { AddonProvider } from './providers/provider.ts';
import { slackAppProvider } from './providers/slack-app.ts';
import { slackProvider } from './providers/slack.ts';
import { teamsWorkflowProvider } from './providers/teams-workflow.ts';
import { teamsProvider } from './providers/teams.ts';
import { webhookProvider } from './providers/webhook.ts';

/** The integrations Unleash 8.2 offers, by the provider name addons are saved with: each event as it comes. */
const EVENT_PROVIDERS: Record<string, AddonProvider> = Object.fromEntries(
  [
    webhookProvider,
    slackProvider,
    slackAppProvider,
    teamsProvider,
    teamsWorkflowProvider,
    datadogProvider,
    newRelicProvider,
  ].map((provider) => [provider.definition.name, provider]),
);

/** Every integration: Unleash's, and Bunting's audit destinations (the whole log, in order, at least once). */
export const PROVIDERS: Record<string, AddonProvider | AuditDestination> = {
  ...EVENT_PROVIDERS,
  ...AUDIT_DESTINATIONS,
};

export const providerNamed = (name: string): AddonProvider | AuditDestination | undefined =>
  Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;

/** A provider that hears of events one at a time (not an audit destination). */
export const eventProviderNamed = (name: string): AddonProvider | undefined =>
  Object.hasOwn(EVENT_PROVIDERS, name) ? EVENT_PROVIDERS[name] : undefined;

/** Whether a parameter of a provider is a secret, masked in answers and events. */
export function isSensitive(provider: string, parameter: string): boolean {
  return providerNamed(provider)?.definition.parameters.some((one) => one.name === parameter && one.sensitive) ?? true;
}

export const MASK = '*****';
