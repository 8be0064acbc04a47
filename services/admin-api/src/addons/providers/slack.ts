import { SlackParameters, type DomainEvent } from '@bunting/contracts';
import { slackTextOf } from '../event-text.ts';
import { CUSTOM_HEADERS, FLAG_EVENTS, customHeaders, type AddonProvider } from './provider.ts';

/** The channels a flag's event goes to: those its `slack` tags name, else the integration's default. */
export function slackChannels(event: DomainEvent, fallback: readonly string[]): string[] {
  const tagged = (event.tags ?? [])
    .filter((tag) => tag.type === 'slack')
    .map((tag) => tag.value.trim())
    .filter(Boolean);
  return [...new Set(tagged.length > 0 ? tagged : fallback)];
}

export const SLACK_TAG_TYPE = {
  name: 'slack',
  description: 'Slack channels to tell of changes to the flag',
  icon: 'S',
};

/** Slack's incoming webhook: one message per channel, with a button to the flag. */
export const slackProvider: AddonProvider = {
  service: 'Slack',
  parameters: SlackParameters,
  definition: {
    name: 'slack',
    displayName: 'Slack',
    description:
      "Tells Slack channels of changes to flags through Slack's incoming webhooks. A flag's slack tags choose its channels.",
    documentationUrl: 'https://docs.getunleash.io/reference/integrations/slack',
    parameters: [
      { name: 'url', displayName: 'Slack webhook URL', type: 'url', required: true, sensitive: true },
      {
        name: 'username',
        displayName: 'Username',
        placeholder: 'Bunting',
        type: 'text',
        required: false,
        sensitive: false,
      },
      {
        name: 'emojiIcon',
        displayName: 'Emoji icon',
        placeholder: ':flag-be:',
        type: 'text',
        required: false,
        sensitive: false,
      },
      {
        name: 'defaultChannel',
        displayName: 'Default channel',
        type: 'text',
        required: true,
        sensitive: false,
        description: 'Where events of flags without a slack tag go.',
      },
      CUSTOM_HEADERS,
    ],
    events: FLAG_EVENTS,
    tagTypes: [SLACK_TAG_TYPE],
  },
  requests(parameters, event, context) {
    const { url, username, emojiIcon, defaultChannel } = SlackParameters.parse(parameters);
    const text = slackTextOf(event, context.baseUrl);
    const link =
      event.featureName && event.project
        ? `${context.baseUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(event.project)}/features/${encodeURIComponent(event.featureName)}`
        : null;
    return slackChannels(event, [defaultChannel]).map((channel) => {
      const body = JSON.stringify({
        username: username || 'Bunting',
        icon_emoji: emojiIcon || ':flag-be:',
        channel: channel.startsWith('#') ? channel : `#${channel}`,
        text,
        ...(link
          ? {
              attachments: [
                {
                  actions: [
                    {
                      name: 'featureToggle',
                      text: 'Open the flag',
                      type: 'button',
                      value: 'featureToggle',
                      style: 'primary',
                      url: link,
                    },
                  ],
                },
              ],
            }
          : {}),
      });
      return {
        url,
        headers: { 'content-type': 'application/json', ...customHeaders(parameters.customHeaders) },
        body,
        shown: body,
      };
    });
  },
};
