import { DatadogParameters } from '@bunting/contracts';
import { markdownOf } from '../event-text.ts';
import { CUSTOM_HEADERS, FLAG_EVENTS, customHeaders, type AddonProvider } from './provider.ts';
import { renderTemplate } from './webhook.ts';

const DEFAULT_URL = 'https://api.datadoghq.com/api/v1/events';

/** Datadog's Events API: the change as an event (Markdown between Datadog's %%% markers), the flag's tags as its tags. */
export const datadogProvider: AddonProvider = {
  service: 'Datadog Events API',
  parameters: DatadogParameters,
  definition: {
    name: 'datadog',
    displayName: 'Datadog',
    description: 'Records changes to flags as Datadog events, to see beside your metrics when something moved.',
    documentationUrl: 'https://docs.getunleash.io/reference/integrations/datadog',
    parameters: [
      {
        name: 'url',
        displayName: 'Datadog events URL',
        placeholder: DEFAULT_URL,
        type: 'url',
        required: false,
        sensitive: false,
        description: "Your Datadog site's events endpoint.",
      },
      { name: 'apiKey', displayName: 'Datadog API key', type: 'text', required: true, sensitive: true },
      {
        name: 'sourceTypeName',
        displayName: 'Datadog source type name',
        placeholder: 'my_apps',
        type: 'text',
        required: false,
        sensitive: false,
      },
      CUSTOM_HEADERS,
      {
        name: 'bodyTemplate',
        displayName: 'Body template',
        placeholder: '{ "event": "{{event.type}}" }',
        type: 'textfield',
        required: false,
        sensitive: false,
        description: 'The text of the event, made from the event (the default is a sentence).',
      },
    ],
    events: FLAG_EVENTS,
  },
  requests(parameters, event, context) {
    const { url, apiKey, sourceTypeName, bodyTemplate } = DatadogParameters.parse(parameters);
    const text = bodyTemplate
      ? renderTemplate(bodyTemplate, event)
      : `%%% \n ${markdownOf(event, context.baseUrl)} \n %%% `;
    const body = JSON.stringify({
      title: 'A flag changed',
      text,
      tags: (event.tags ?? []).map((tag) => `${tag.type}:${tag.value}`),
      ...(sourceTypeName ? { source_type_name: sourceTypeName } : {}),
    });
    return [
      {
        url: url ?? DEFAULT_URL,
        headers: {
          'content-type': 'application/json',
          'dd-api-key': apiKey,
          ...customHeaders(parameters.customHeaders),
        },
        body,
        shown: body,
      },
    ];
  },
};
