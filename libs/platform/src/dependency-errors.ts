// No import of slonik or ioredis here: every process maps errors, and a process without a database or Redis (the
// standalone edge) should not load their drivers to do it. Slonik's errors are known by their class names.
const POSTGRES_UNAVAILABLE_ERRORS = new Set(['ConnectionError', 'BackendTerminatedError', 'StatementTimeoutError']);
const classOf = (error: unknown) => (error as { constructor?: { name?: unknown } } | null)?.constructor?.name;

/** Postgres error classes and codes that mean "the database cannot answer now", not "the request is wrong". */
const POSTGRES_UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
]);

function codeOf(error: unknown): string | undefined {
  const direct = (error as { code?: unknown })?.code;
  if (typeof direct === 'string') return direct;
  const cause = (error as { cause?: unknown })?.cause;
  return cause && cause !== error ? codeOf(cause) : undefined;
}

/** Which dependency an error says is unavailable (answered 503 with Retry-After), or null when it says no such thing. */
export function unavailableDependency(error: unknown): 'postgres' | 'redis' | 'nats' | null {
  if (POSTGRES_UNAVAILABLE_ERRORS.has(String(classOf(error)))) return 'postgres';
  const code = codeOf(error);
  const message = String((error as { message?: unknown })?.message ?? '');
  if (code && POSTGRES_UNAVAILABLE_CODES.has(code) && !isRedisUnavailable(error)) return 'postgres';
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
      message,
    )
  )
    return 'postgres';
  if (isRedisUnavailable(error)) return 'redis';
  const name = (error as { name?: unknown })?.name;
  if (
    name === 'TimeoutError' ||
    name === 'ClosedConnectionError' ||
    name === 'NoRespondersError' ||
    /^(CONNECTION_CLOSED|TIMEOUT|503)$/.test(String(code))
  )
    return 'nats';
  return null;
}

/** Whether an error is a unique constraint the request ran into (two creates of one name at once): a 409. */
export function isUniqueViolation(error: unknown): boolean {
  return classOf(error) === 'UniqueIntegrityConstraintViolationError' || codeOf(error) === '23505';
}

/** Whether an error came from Redis being unreachable, slow or reconnecting (answered 503, not 500). */
export function isRedisUnavailable(error: unknown): boolean {
  const name = (error as { name?: string })?.name ?? '';
  const message = String((error as { message?: string })?.message ?? '');
  return (
    name === 'MaxRetriesPerRequestError' ||
    /Command timed out|Connection is closed|Stream isn't writeable|enableOfflineQueue|ECONNREFUSED|ECONNRESET|ETIMEDOUT/.test(
      message,
    )
  );
}
