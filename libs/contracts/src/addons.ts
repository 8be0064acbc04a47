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
