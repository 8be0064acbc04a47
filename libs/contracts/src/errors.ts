import { z } from 'zod';
import { SignInOption } from './sign-in.ts';

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

/**
 * Every error body the services send: the spec's Error plus Unleash's per-field details; a 401 to a browser also
 * says how to sign in (the password form's path, whether it is hidden, other options), as Unleash's does.
 */
export const ErrorBody = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string(),
  details: z.array(ErrorDetail).optional(),
  path: z.string().optional(),
  type: z.string().optional(),
  defaultHidden: z.boolean().optional(),
  options: z.array(SignInOption).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
