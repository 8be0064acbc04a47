import { TeamsParameters } from '@bunting/contracts';
import { eventText, markdownOf } from '../event-text.ts';
import { CUSTOM_HEADERS, FLAG_EVENTS, customHeaders, type AddonProvider } from './provider.ts';

/** A Teams workflow ("When a Teams webhook request is received"): an Adaptive Card in a message. */
export const teamsWorkflowProvider: AddonProvider = {
  service: 'Teams workflow',
  parameters: TeamsParameters,
  definition: {
    name: 'teamsworkflow',
    displayName: 'Microsoft Teams - Workflow',
    description:
      'Tells a Teams channel of changes to flags through a Teams workflow that posts the Adaptive Card it receives.',
    documentationUrl: 'https://docs.getunleash.io/reference/integrations/teams',
    parameters: [
      { name: 'url', displayName: 'Workflow URL', type: 'url', required: true, sensitive: true },
      CUSTOM_HEADERS,
    ],
    events: FLAG_EVENTS,
  },
  requests(parameters, event, context) {
    const { url } = TeamsParameters.parse(parameters);
    const text = eventText(event, context.baseUrl);
    const body = JSON.stringify({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: markdownOf(event, context.baseUrl), wrap: true },
              {
                type: 'FactSet',
                facts: [
                  { title: 'User', value: text.who },
                  { title: 'Action', value: event.type },
                  ...(event.environment ? [{ title: 'Environment', value: event.environment }] : []),
                ],
              },
            ],
            ...(text.link ? { actions: [{ type: 'Action.OpenUrl', title: 'Open the flag', url: text.link }] } : {}),
          },
        },
      ],
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
