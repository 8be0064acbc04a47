import { CHANGE_REQUEST_EVENTS, FLAG_EVENTS, type AddonProvider } from './provider.ts';
import { SlackAppParameters } from '@bunting/contracts';
import { slackTextOf } from '../event-text.ts';
import { SLACK_TAG_TYPE, slackChannels } from './slack.ts';

/** The Slack app: chat.postMessage with the bot's token, to each channel the flag's tags or the settings name. */
export const slackAppProvider: AddonProvider = {
  service: 'Slack API',
  parameters: SlackAppParameters,
  definition: {
    name: 'slack-app',
    displayName: 'App for Slack',
    description: "Posts changes to flags and change requests in Slack channels through a Slack app's bot token.",
    documentationUrl: 'https://docs.getunleash.io/reference/integrations/slack-app',
    howTo:
      'Install a Slack app with the chat:write scope in your workspace, invite it to the channels, and paste its bot token here.',
    parameters: [
      {
        name: 'accessToken',
        displayName: 'Access token',
        type: 'text',
        required: true,
        sensitive: true,
        description: "The app's bot token (xoxb-...).",
      },
      {
        name: 'defaultChannels',
        displayName: 'Channels',
        placeholder: 'releases, checkout-team',
        type: 'text',
        required: false,
        sensitive: false,
        description: 'Comma-separated; flags with slack tags go to those channels too.',
      },
    ],
    events: [...FLAG_EVENTS, ...CHANGE_REQUEST_EVENTS],
    tagTypes: [SLACK_TAG_TYPE],
  },
  requests(parameters, event, context) {
    const { accessToken, defaultChannels } = SlackAppParameters.parse(parameters);
    const defaults = (defaultChannels ?? '')
      .split(',')
      .map((channel) => channel.trim())
      .filter(Boolean);
    const tagged = slackChannels(event, []);
    const text = slackTextOf(event, context.baseUrl);
    return [...new Set([...defaults, ...tagged])].map((channel) => {
      const body = JSON.stringify({ channel, text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
      return {
        url: `${context.slackApiUrl.replace(/\/+$/, '')}/chat.postMessage`,
        headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${accessToken}` },
        body,
        shown: body,
      };
    });
  },
};
