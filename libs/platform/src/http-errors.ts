import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorDetail } from '@bunting/contracts';
import { unavailableDependency, isUniqueViolation } from './dependency-errors.ts';
import { DomainError, fieldMessage } from './errors.ts';

/** The error's id is the request's, so a user quoting it finds the request's log line (and trace). */
function bodyFor(id: string) {
  return (name: string, message: string, details?: ErrorDetail[]): ErrorBody =>
    details ? { id, name, message, details } : { id, name, message };
}

function validationDetails(error: FastifyError): ErrorDetail[] {
  const context = (error as { validationContext?: string }).validationContext;
  return (error.validation ?? []).map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field = path || (issue.params as { missingProperty?: string } | undefined)?.missingProperty || context || '';
    return { path: field, message: fieldMessage(field, issue.message ?? 'invalid value') };
  });
}

/** Most a refused request's body is read (and thrown away) for, and for how long. */
const LINGER_BYTES = 64 * 1024 * 1024;
const LINGER_MS = 10_000;

/**
 * A request refused before its body was read (too large, wrong type) still has a body on its way. Closing the
 * connection now would reset it under a client that sends the whole body before reading the answer, which then never
 * sees the answer (a broken pipe instead of the 413). So, as mature servers do, the rest is read and thrown away (up
 * to a bound) and the connection stays open meanwhile.
 */
function lingerOverUnreadBody(request: FastifyRequest, reply: FastifyReply) {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  reply.removeHeader('connection');
  let read = 0;
  // A request made in-process (app.inject, as the MCP server's tool calls are) has no real socket to close.
  const close = () => (typeof raw.socket?.destroy === 'function' ? raw.socket.destroy() : undefined);
  const stop = setTimeout(close, LINGER_MS);
  stop.unref();
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) close();
  });
  raw.once('end', () => clearTimeout(stop));
  raw.once('close', () => clearTimeout(stop));
  raw.resume();
}

/** The one place where any thrown error becomes the spec's error body. Nothing internal leaks from a 5xx. */
/** Turns the spec's error body into another API's shape (the OpenFeature manifest API's), given the status sent. */
export type ErrorShape = (body: ErrorBody, status: number) => object;

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, shape?: ErrorShape) {
  lingerOverUnreadBody(request, reply);
  const plain = bodyFor(typeof request.id === 'string' && request.id ? request.id : randomUUID());
  // Each answer below sets its status before its body is built, so the shape sees the status sent.
  const body = shape
    ? (name: string, message: string, details?: ErrorDetail[]) => shape(plain(name, message, details), reply.statusCode)
    : plain;
  if (error instanceof DomainError) {
    if (error.headers) reply.headers(error.headers);
    return reply
      .code(error.status)
      .send(
        shape
          ? body(error.errorName, error.message, error.details)
          : { ...body(error.errorName, error.message, error.details), ...error.extra },
      );
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(error) || fastifyError.validation) {
    const details = validationDetails(fastifyError);
    const message =
      details.length > 0
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
      return reply
        .code(400)
        .send(
          body('ValidationError', 'The request body is not valid JSON.', [{ path: 'body', message: 'invalid JSON' }]),
        );
  }
  if (error instanceof SyntaxError) {
    return reply
      .code(400)
      .send(
        body('ValidationError', 'The request body is not valid JSON.', [{ path: 'body', message: 'invalid JSON' }]),
      );
  }
  const dependency = unavailableDependency(error);
  if (dependency) {
    request.log.warn(
      { reqId: request.id, url: request.url.split('?')[0], dependency, reason: (error as Error).message },
      'a dependency is unavailable',
    );
    return reply
      .code(503)
      .header('retry-after', '5')
      .send(
        body(
          'ServiceUnavailableError',
          `The service cannot answer right now (${dependency} is unavailable); try again shortly.`,
        ),
      );
  }
  if (isUniqueViolation(error)) {
    return reply
      .code(409)
      .send(
        body('NameExistsError', 'That name is already taken (it was created at the same time by another request).'),
      );
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const name = status === 404 ? 'NotFoundError' : status === 401 ? 'AuthenticationRequired' : 'ValidationError';
    return reply.code(status).send(body(name, fastifyError.message));
  }
  request.log.error({ err: error, reqId: request.id, url: request.url }, 'unexpected error');
  return reply.code(500).send(body('InternalError', 'Something went wrong on our side; the error has been logged.'));
}
