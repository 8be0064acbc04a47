import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorDetail } from '@bunting/contracts';
import { DomainError } from './errors.ts';

function body(name: string, message: string, details?: ErrorDetail[]): ErrorBody {
  return details ? { id: randomUUID(), name, message, details } : { id: randomUUID(), name, message };
}

function validationDetails(error: FastifyError): ErrorDetail[] {
  const context = (error as { validationContext?: string }).validationContext;
  return (error.validation ?? []).map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field = path || (issue.params as { missingProperty?: string } | undefined)?.missingProperty || context || '';
    return { path: field, message: `${field ? `${field}: ` : ''}${issue.message ?? 'invalid value'}` };
  });
}

/** The one place where any thrown error becomes the spec's error body. Nothing internal leaks from a 5xx. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DomainError) {
    if (error.headers) reply.headers(error.headers);
    return reply.code(error.status).send(body(error.errorName, error.message, error.details));
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(error) || fastifyError.validation) {
    const details = validationDetails(fastifyError);
    const message = details.length > 0
      ? `Request validation failed: ${details.map((detail) => detail.message).join('; ')}`
      : 'Request validation failed';
    return reply.code(400).send(body('ValidationError', message, details));
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply.code(413).send(body('PayloadTooLargeError', 'The request body is too large.'));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply.code(415).send(body('ContentTypeError', 'Send the request body as application/json.'));
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return reply.code(400).send(body('ValidationError', 'The request body is not valid JSON.', [{ path: 'body', message: 'invalid JSON' }]));
  }
  if (error instanceof SyntaxError) {
    return reply.code(400).send(body('ValidationError', 'The request body is not valid JSON.', [{ path: 'body', message: 'invalid JSON' }]));
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const name = status === 404 ? 'NotFoundError' : status === 401 ? 'AuthenticationRequired' : 'ValidationError';
    return reply.code(status).send(body(name, fastifyError.message));
  }
  request.log.error({ err: error, reqId: request.id, url: request.url }, 'unexpected error');
  return reply.code(500).send(body('InternalError', 'Something went wrong on our side; the error has been logged.'));
}
