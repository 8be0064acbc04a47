import { EVENT_TYPES, WebhookParameters, type DomainEvent } from '@bunting/contracts';
import { CUSTOM_HEADERS, customHeaders, type AddonProvider } from './provider.ts';

/** What a webhook receives by default, and what templates read as `event`: the event as the log shows it. */
export function payloadOf(event: DomainEvent) {
  const { groupId: _groupId, ...rest } = event;
  return rest;
}

/**
 * Fills `{{event.type}}`-style placeholders from the event: text as it is, anything else as JSON, missing as
 * nothing. (Unleash uses Mustache; this covers the placeholders its templates use.)
 */
export function renderTemplate(template: string, event: DomainEvent): string {
  const scope: Record<string, unknown> = { event: payloadOf(event) };
  return template.replace(/\{\{\{?\s*([\w.]+)\s*\}?\}\}/g, (_match, path: string) => {
    let value: unknown = scope;
    for (const key of path.split('.'))
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

export const webhookProvider: AddonProvider = {
  service: 'Webhook',
  parameters: WebhookParameters,
  definition: {
    name: 'webhook',
    displayName: 'Webhook',
    description:
      'Sends each chosen event as an HTTP POST to a URL of yours: the event as JSON, or a body made from a template.',
    documentationUrl: 'https://docs.getunleash.io/reference/integrations/webhook',
    parameters: [
      { name: 'url', displayName: 'Webhook URL', type: 'url', required: true, sensitive: false },
      {
        name: 'contentType',
        displayName: 'Content-Type',
        placeholder: 'application/json',
        type: 'text',
        required: false,
        sensitive: false,
      },
      { name: 'authorization', displayName: 'Authorization', type: 'text', required: false, sensitive: true },
      {
        name: 'bodyTemplate',
        displayName: 'Body template',
        placeholder: '{ "event": "{{event.type}}", "createdBy": "{{event.createdBy}}" }',
        type: 'textfield',
        required: false,
        sensitive: false,
      },
      { ...CUSTOM_HEADERS, displayName: 'Extra HTTP Headers', placeholder: '{ "X-Api-Key": "..." }' },
    ],
    events: [...EVENT_TYPES],
  },
  requests(parameters, event) {
    const { url, contentType, authorization, bodyTemplate } = WebhookParameters.parse(parameters);
    const headers: Record<string, string> = { 'content-type': contentType ?? 'application/json' };
    if (authorization) headers.authorization = authorization;
    Object.assign(headers, customHeaders(parameters.customHeaders));
    const body = bodyTemplate ? renderTemplate(bodyTemplate, event) : JSON.stringify(payloadOf(event));
    return [{ url, headers, body, shown: body }];
  },
};
