import { TeamsParameters } from '@bunting/contracts';
import { eventText, markdownOf } from '../event-text.ts';
import { CUSTOM_HEADERS, FLAG_EVENTS, customHeaders, type AddonProvider } from './provider.ts';

const TITLE = 'A flag changed';

/** Microsoft Teams' incoming webhook: a message card with who did what and a link to the flag. */
export const teamsProvider: AddonProvider = {
  service: 'Teams',
  parameters: TeamsParameters,
  definition: {
    name: 'teams',
    displayName: 'Microsoft Teams',
    description: "Tells a Teams channel of changes to flags through the channel's incoming webhook (a message card).",
    documentationUrl: 'https://docs.getunleash.io/reference/integrations/teams',
    parameters: [
      { name: 'url', displayName: 'Microsoft Teams webhook URL', type: 'url', required: true, sensitive: true },
      CUSTOM_HEADERS,
    ],
    events: FLAG_EVENTS,
  },
  requests(parameters, event, context) {
    const { url } = TeamsParameters.parse(parameters);
    const text = eventText(event, context.baseUrl);
    const body = JSON.stringify({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      themeColor: '0076D7',
      summary: TITLE,
      sections: [
        {
          activityTitle: markdownOf(event, context.baseUrl),
          activitySubtitle: TITLE,
          facts: [
            { name: 'User', value: text.who },
            { name: 'Action', value: event.type },
            ...(event.environment ? [{ name: 'Environment', value: event.environment }] : []),
          ],
        },
      ],
      ...(text.link
        ? {
            potentialAction: [
              { '@type': 'OpenUri', name: 'Open the flag', targets: [{ os: 'default', uri: text.link }] },
            ],
          }
        : {}),
    });
    return [
      {
        url,
        headers: { 'content-type': 'application/json', ...customHeaders(parameters.customHeaders) },
        body,
        shown: body,
      },
    ];
  },
};
