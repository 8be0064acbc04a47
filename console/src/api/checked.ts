import type { z } from 'zod';
import { ApiError } from './http.ts';

/**
 * A form's body checked with the contract the API checks it with: a problem is refused here as the server would
 * refuse it (a ValidationError naming the field), so the form shows it at the field before anything is sent.
 */
export function checked<Body>(schema: z.ZodType, body: Body): Body {
  const result = schema.safeParse(body);
  if (result.success) return body;
  const details = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw new ApiError(400, {
    name: 'ValidationError',
    message: details.map((detail) => `${detail.path || 'body'}: ${detail.message}`).join('; '),
    details,
  });
}
