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

// Answers: what the routes of this resource send.

/** POST /api/admin/addons */
export const AddonView = Addon;

/** GET /api/admin/addons */
export const AddonList = z.object({
  addons: z.array(AddonView),
  providers: z.array(z.object({
    name: z.string(),
    displayName: z.string(),
    description: z.string(),
    documentationUrl: z.string(),
    parameters: z.array(z.object({
      name: z.string(),
      displayName: z.string(),
      placeholder: z.string().optional(),
      type: z.string(),
      required: z.boolean(),
      sensitive: z.boolean(),
    })),
    events: z.array(EventType),
  })),
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
