import type { ErrorBody, ManifestError } from '@bunting/contracts';
import { DomainError, sendError } from '@bunting/platform';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

// The codes of a refusal's details (zod's issue codes for a body that does not fit), kept for the shape below.
const codes = new WeakMap<FastifyRequest, Map<string, string>>();

function codeFor(error: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const { validation, validationContext } = error as FastifyError;
  for (const issue of validation ?? []) {
    // The field as the platform's error body names it (a body-wide issue is named by its part, "body").
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field =
      path || (issue.params as { missingProperty?: string } | undefined)?.missingProperty || validationContext || '';
    if (typeof issue.keyword === 'string') found.set(field, issue.keyword);
  }
  if (error instanceof DomainError && error.status === 409) found.set('key', 'conflict');
  return found;
}

function codeOfStatus(status: number): string {
  return status === 409 ? 'conflict' : status === 404 ? 'not_found' : 'custom';
}

/** The manifest API's error shape: `{error: {message, status, details: [{field, code, message}]}}`. */
function manifestShape(request: FastifyRequest) {
  return (body: ErrorBody, status: number): ManifestError => {
    const known = codes.get(request);
    const validation = status === 400 && body.name === 'ValidationError' && known && known.size > 0;
    const details = (body.details ?? [])
      .filter((detail) => detail.path !== undefined || body.details!.length > 1 || detail.message !== body.message)
      .map((detail) => ({
        ...(detail.path ? { field: detail.path } : {}),
        code: (detail.path && known?.get(detail.path)) || codeOfStatus(status),
        message: detail.message,
      }));
    return {
      error: {
        message: validation ? 'Validation failed.' : body.message,
        status,
        ...(details.length > 0 ? { details } : {}),
      },
    };
  };
}

export function handleManifestError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  codes.set(request, codeFor(error));
  return sendError(error, request, reply, manifestShape(request));
}

/** Not-found inside the manifest's prefix answers in its shape too. */
export function manifestNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(
    new DomainError(
      404,
      'NotFoundError',
      `There is no manifest endpoint ${request.method} ${request.url.split('?')[0]}`,
    ),
    request,
    reply,
    manifestShape(request),
  );
}
