import { z } from 'zod';

/** Unleash's URL-friendly name rule, used for features, projects, environments and similar. */
export const URL_FRIENDLY = /^[a-zA-Z0-9~_.-]+$/;

export const UrlFriendlyName = z
  .string()
  .min(1)
  .max(100)
  .regex(URL_FRIENDLY, 'must be URL-friendly: letters, digits, ~ _ . -')
  .refine((name) => name !== '.' && name !== '..', 'must not be . or ..');


/** Path parameters arrive as strings; this bounds them so a huge id cannot reach a query. */
export const PathName = z.string().min(1).max(255);
export const NumericId = z.coerce.number().int().min(0).max(2_147_483_647);
