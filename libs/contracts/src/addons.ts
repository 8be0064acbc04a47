import { z } from 'zod';
import { EventType } from './events.ts';

/** addonCreateUpdateSchema: an integration that sends chosen events somewhere. */
export const AddonInput = z.object({
  provider: z.string().min(1).max(100),
  description: z.string().max(1000).nullable().optional(),
  enabled: z.boolean(),
  parameters: z.record(z.string(), z.unknown()),
  events: z.array(EventType).max(200),
  projects: z.array(z.string().min(1).max(255)).max(1000).optional(),
  environments: z.array(z.string().min(1).max(100)).max(100).optional(),
});
export type AddonInput = z.infer<typeof AddonInput>;

/** addonSchema */
export const Addon = AddonInput.extend({
  id: z.number().int().min(1),
  description: z.string().nullable(),
  projects: z.array(z.string()),
  environments: z.array(z.string()),
});
export type Addon = z.infer<typeof Addon>;

/** The webhook provider's parameters, checked when an addon is saved. */
export const WebhookParameters = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2000),
  contentType: z.string().max(200).optional(),
  authorization: z.string().max(2000).optional(),
  bodyTemplate: z.string().max(20_000).optional(),
  customHeaders: z.string().max(5000).optional(),
});
export type WebhookParameters = z.infer<typeof WebhookParameters>;

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2000);
const Headers = z.string().max(5000).optional();
const Template = z.string().max(20_000).optional();

/** Slack's incoming webhook: the channel when a flag names none with a `slack` tag. */
export const SlackParameters = z.object({
  url: HttpUrl,
  username: z.string().max(200).optional(),
  emojiIcon: z.string().max(100).optional(),
  defaultChannel: z.string().min(1).max(200),
  customHeaders: Headers,
});

/** The Slack app: a bot token, and the channels (comma-separated) it posts to besides a flag's `slack` tags. */
export const SlackAppParameters = z.object({
  accessToken: z.string().min(1).max(2000),
  defaultChannels: z.string().max(2000).optional(),
});

/** Microsoft Teams' incoming webhook, or a Teams workflow's trigger URL. */
export const TeamsParameters = z.object({ url: HttpUrl, customHeaders: Headers });

/** Datadog's Events API: the site's URL (api.datadoghq.com unless given) and an API key. */
export const DatadogParameters = z.object({
  url: HttpUrl.optional(),
  apiKey: z.string().min(1).max(2000),
  sourceTypeName: z.string().max(200).optional(),
  customHeaders: Headers,
  bodyTemplate: Template,
});

/** New Relic's Event API: the account's insert URL and a licence key. */
export const NewRelicParameters = z.object({
  url: HttpUrl,
  licenseKey: z.string().min(1).max(2000),
  customHeaders: Headers,
  bodyTemplate: Template,
});

// Answers: what the routes of this resource send.

/** POST /api/admin/addons */
export const AddonView = Addon;

/** GET /api/admin/addons */
export const AddonList = z.object({
  addons: z.array(AddonView),
  providers: z.array(
    z.object({
      name: z.string(),
      displayName: z.string(),
      description: z.string(),
      documentationUrl: z.string(),
      parameters: z.array(
        z.object({
          name: z.string(),
          displayName: z.string(),
          placeholder: z.string().optional(),
          type: z.string(),
          required: z.boolean(),
          sensitive: z.boolean(),
          description: z.string().optional(),
        }),
      ),
      events: z.array(EventType),
      /** Tag types the provider reads from flags (Slack's channels). */
      tagTypes: z.array(z.object({ name: z.string(), description: z.string(), icon: z.string() })).optional(),
      howTo: z.string().optional(),
      /**
       * Bunting's: an audit destination, which takes the whole log in order (no event types named: every one) and
       * the sign-in history, with a delivery status and replay (/api/admin/addons/{id}/audit-status).
       */
      audit: z.boolean().optional(),
    }),
  ),
});

/** One delivery of an event to an addon, and how it went (Unleash's integration event). */
export const AddonDelivery = z.object({
  id: z.string(),
  integrationId: z.number(),
  createdAt: z.string(),
  state: z.string(),
  stateDetails: z.string(),
  event: z.record(z.string(), z.unknown()),
  details: z.record(z.string(), z.unknown()),
});

/** GET /api/admin/addons/:id/events */
export const AddonDeliveries = z.object({ integrationEvents: z.array(AddonDelivery).readonly() });
