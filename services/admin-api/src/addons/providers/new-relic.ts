import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { NewRelicParameters } from '@bunting/contracts';
import { markdownOf } from '../event-text.ts';
import { CUSTOM_HEADERS, FLAG_EVENTS, customHeaders, type AddonProvider } from './provider.ts';
import { renderTemplate } from './webhook.ts';

const compress = promisify(gzip);

/** New Relic's Event API: a custom event (UnleashServiceEvent, as Unleash names it) per change, gzipped. */
export const newRelicProvider: AddonProvider = {
  service: 'New Relic Event API',
  parameters: NewRelicParameters,
  definition: {
    name: 'new-relic',
    displayName: 'New Relic',
    description:
      'Records changes to flags as New Relic custom events (UnleashServiceEvent), to query and chart beside your telemetry.',
    documentationUrl: 'https://docs.getunleash.io/reference/integrations/new-relic',
    parameters: [
      {
        name: 'url',
        displayName: 'New Relic Event URL',
        placeholder: 'https://insights-collector.newrelic.com/v1/accounts/<account>/events',
        type: 'url',
        required: true,
        sensitive: false,
      },
      { name: 'licenseKey', displayName: 'New Relic license key', type: 'text', required: true, sensitive: true },
      CUSTOM_HEADERS,
      {
        name: 'bodyTemplate',
        displayName: 'Body template',
        type: 'textfield',
        required: false,
        sensitive: false,
        description: "The event's text, made from the event.",
      },
    ],
    events: FLAG_EVENTS,
  },
  async requests(parameters, event, context) {
    const { url, licenseKey, bodyTemplate } = NewRelicParameters.parse(parameters);
    const record = {
      eventType: 'UnleashServiceEvent',
      unleashEventType: event.type,
      featureName: event.featureName,
      project: event.project,
      environment: event.environment,
      createdBy: event.createdBy,
      createdByUserId: event.createdByUserId,
      createdAt: Date.parse(event.createdAt),
      text: bodyTemplate ? renderTemplate(bodyTemplate, event) : markdownOf(event, context.baseUrl),
    };
    const json = JSON.stringify(record);
    return [
      {
        url,
        headers: {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'api-key': licenseKey,
          ...customHeaders(parameters.customHeaders),
        },
        body: new Uint8Array(await compress(json)),
        shown: json,
      },
    ];
  },
};
