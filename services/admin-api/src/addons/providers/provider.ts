import type { z } from 'zod';
import type { DomainEvent, EventType } from '@bunting/contracts';

/** A parameter as Unleash's UI renders it in an integration's form. */
export type ProviderParameter = {
  name: string;
  displayName: string;
  type: 'url' | 'text' | 'textfield';
  required: boolean;
  /** Masked in every answer and event; a masked value sent back keeps the stored one. */
  sensitive: boolean;
  placeholder?: string;
  description?: string;
};

export type ProviderDefinition = {
  name: string;
  displayName: string;
  description: string;
  documentationUrl: string;
  howTo?: string;
  parameters: ProviderParameter[];
  events: EventType[];
  tagTypes?: { name: string; description: string; icon: string }[];
  /** An audit destination (Bunting's): the whole log in order, status and replay. */
  audit?: boolean;
};

/** One HTTP request an event becomes (a Slack message to each channel is one each). */
export type Outgoing = {
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer>;
  shown: string;
};

/** What a provider needs besides the event: where the console is (for links) and Slack's API. */
export type DeliveryContext = { baseUrl: string; slackApiUrl: string };

export type AddonProvider = {
  definition: ProviderDefinition;
  parameters: z.ZodType<Record<string, unknown>>;
  /** The service's name in delivery outcomes ("Slack request failed with status code 500"). */
  service: string;
  requests: (
    parameters: Record<string, unknown>,
    event: DomainEvent,
    context: DeliveryContext,
  ) => Promise<Outgoing[]> | Outgoing[];
};

/** Extra headers an admin configured, as a JSON object (checked when the integration is saved). */
export function customHeaders(value: unknown): Record<string, string> {
  if (typeof value !== 'string' || value.trim() === '') return {};
  return Object.fromEntries(
    Object.entries(JSON.parse(value) as Record<string, unknown>).map(([name, header]) => [
      name.toLowerCase(),
      String(header),
    ]),
  );
}

/** The events about flags that chat and monitoring integrations offer. */
export const FLAG_EVENTS: EventType[] = [
  'feature-created',
  'feature-metadata-updated',
  'feature-project-change',
  'feature-archived',
  'feature-revived',
  'feature-deleted',
  'feature-environment-enabled',
  'feature-environment-disabled',
  'feature-strategy-add',
  'feature-strategy-update',
  'feature-strategy-remove',
  'strategy-order-changed',
  'feature-environment-variants-updated',
  'feature-stale-on',
  'feature-stale-off',
  'feature-potentially-stale-on',
  'feature-tagged',
  'feature-untagged',
  'feature-completed',
  'feature-uncompleted',
  'feature-dependency-added',
  'feature-dependency-removed',
];

export const CHANGE_REQUEST_EVENTS: EventType[] = [
  'change-request-created',
  'change-request-sent-to-review',
  'change-request-approved',
  'change-request-approval-added',
  'change-request-rejected',
  'change-request-cancelled',
  'change-request-applied',
  'change-request-scheduled',
  'change-request-scheduled-application-success',
  'change-request-scheduled-application-failure',
];

export const CUSTOM_HEADERS: ProviderParameter = {
  name: 'customHeaders',
  displayName: 'Extra HTTP headers',
  type: 'textfield',
  required: false,
  sensitive: true,
  placeholder: '{ "X-Team": "payments" }',
  description: 'A JSON object of header names to values, sent with every request.',
};
