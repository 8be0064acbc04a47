import { z } from 'zod';

export const ErrorName = z.enum([
  'ValidationError',
  'AuthenticationRequired',
  'NoAccessError',
  'NotFoundError',
  'NameExistsError',
  'ContentTypeError',
  'PayloadTooLargeError',
  'RateLimitError',
  'ExceedsLimitError',
  'InternalError',
  'ServiceUnavailableError',
]);
export type ErrorName = z.infer<typeof ErrorName>;

export const ErrorDetail = z.object({ path: z.string().optional(), message: z.string() });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** Every error body the services send: the spec's Error plus Unleash's per-field details. */
export const ErrorBody = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string(),
  details: z.array(ErrorDetail).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
