import { SCIM_SCHEMAS, type ErrorName } from '@bunting/contracts';
import { DomainError, sendError } from '@bunting/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue';
const NAMES: Record<number, ErrorName> = {
  400: 'ValidationError',
  401: 'AuthenticationRequired',
  403: 'NoAccessError',
  404: 'NotFoundError',
  409: 'NameExistsError',
};

/** A refusal with SCIM's scimType (RFC 7644 §3.12), which the scope's answers carry. */
export class ScimError extends DomainError {
  readonly scimType: ScimType | undefined;
  constructor(status: 400 | 401 | 403 | 404 | 409, message: string, scimType?: ScimType) {
    super(status, NAMES[status]!, message);
    this.scimType = scimType;
  }
}

const scimTypes = new WeakMap<FastifyRequest, string>();

/** Errors go through the platform's handler (which also answers 503 with Retry-After when Postgres is away). */
export function handleScimError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ScimError && error.scimType) scimTypes.set(request, error.scimType);
  return sendError(error, request, reply);
}

/** ...and leave in SCIM's shape: schemas, the status as a string, scimType, detail. */
export async function scimErrorShape(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
  let body: { message?: string; details?: { message: string }[] };
  try {
    body = JSON.parse(payload) as typeof body;
  } catch {
    return payload;
  }
  if (typeof body.message !== 'string') return payload;
  const status = reply.statusCode;
  const scimType =
    scimTypes.get(request) ?? (status === 409 ? 'uniqueness' : status === 400 ? 'invalidValue' : undefined);
  const detail =
    body.details && body.details.length > 0 ? body.details.map((entry) => entry.message).join('; ') : body.message;
  reply.type('application/scim+json');
  return JSON.stringify({
    schemas: [SCIM_SCHEMAS.error],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  });
}
