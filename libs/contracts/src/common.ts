import { z } from 'zod';

/** Unleash's URL-friendly name rule, used for features, projects, environments and similar. */
export const URL_FRIENDLY = /^[a-zA-Z0-9~_.-]+$/;

export const UrlFriendlyName = z
  .string()
  .min(1)
  .max(100)
  .regex(URL_FRIENDLY, 'must be URL friendly (letters, digits, ~ _ . -)')
  .refine((name) => name !== '.' && name !== '..', 'must not be . or ..');

/** Path parameters arrive as strings; this bounds them so a huge id cannot reach a query. */
export const PathName = z.string().min(1).max(255);
export const NumericId = z.coerce.number().int().min(0).max(2_147_483_647);

/**
 * An answer without a body (a write's 204, or a 200/202 that only acknowledges). A null schema is how the OpenAPI
 * generator learns there is no content; its type is void so that a handler's `reply.send()` takes no payload.
 */
export const NoContent = z.null().describe('No content') as unknown as z.ZodType<void>;

/** A redirect (302): no body, the Location header says where. Typed void as NoContent is. */
export const Redirect = z.null().describe('A redirect: the Location header says where') as unknown as z.ZodType<void>;

/** A text answer of the given media type (CSV, Prometheus' exposition format, server-sent events). */
export const textAnswer = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});

/**
 * Text that may come as a number, taken as its text and then held to the same rules: Unleash's schema check coerces
 * a number where it expects a string (a tag value, a constraint value), so its clients send them.
 */
export const textOrNumber = (text: z.ZodType<string, string>) =>
  z.union([text, z.number().finite().transform(String).pipe(text)]);
