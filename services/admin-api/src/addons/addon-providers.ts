import { datadogProvider } from './providers/datadog.ts';
import { newRelicProvider } from './providers/new-relic.ts';
import type { AddonProvider } from './providers/provider.ts';
import { slackAppProvider } from './providers/slack-app.ts';
import { slackProvider } from './providers/slack.ts';
import { teamsWorkflowProvider } from './providers/teams-workflow.ts';
import { teamsProvider } from './providers/teams.ts';
import { webhookProvider } from './providers/webhook.ts';

/** The integrations Unleash 8.2 offers, by the provider name addons are saved with. */
export const PROVIDERS: Record<string, AddonProvider> = Object.fromEntries(
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

export const providerNamed = (name: string): AddonProvider | undefined => PROVIDERS[name];

/** Whether a parameter of a provider is a secret, masked in answers and events. */
export function isSensitive(provider: string, parameter: string): boolean {
  return providerNamed(provider)?.definition.parameters.some((one) => one.name === parameter && one.sensitive) ?? true;
}

export const MASK = '*****';
