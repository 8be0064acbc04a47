import { WebhookParameters } from '@bunting/contracts';
import { EVENT_TYPES } from '@bunting/contracts';

/** The one provider Bunting has: a webhook, as Unleash describes it to its UI. */
export const WEBHOOK_PROVIDER = {
  name: 'webhook',
  displayName: 'Webhook',
  description: 'A webhook is a method of augmenting or altering the behavior of a web page, or web application, with custom callbacks.',
  documentationUrl: 'https://docs.getunleash.io/reference/integrations/webhook',
  parameters: [
    { name: 'url', displayName: 'Webhook URL', type: 'url', required: true, sensitive: false },
    { name: 'contentType', displayName: 'Content-Type', placeholder: 'application/json', type: 'text', required: false, sensitive: false },
    { name: 'authorization', displayName: 'Authorization', type: 'text', required: false, sensitive: true },
    { name: 'bodyTemplate', displayName: 'Body template', placeholder: '{ "event": "{{event.type}}", "createdBy": "{{event.createdBy}}" }', type: 'textfield', required: false, sensitive: false },
    { name: 'customHeaders', displayName: 'Extra HTTP Headers', placeholder: '{ "X-Api-Key": "..." }', type: 'textfield', required: false, sensitive: true },
  ],
  events: [...EVENT_TYPES],
};

export const PROVIDERS = { webhook: { definition: WEBHOOK_PROVIDER, parameters: WebhookParameters } } as const;
export type ProviderName = keyof typeof PROVIDERS;

export const SENSITIVE = new Set(WEBHOOK_PROVIDER.parameters.filter((parameter) => parameter.sensitive).map((parameter) => parameter.name));
export const MASK = '*****';
