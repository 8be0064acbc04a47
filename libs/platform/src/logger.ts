import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Fields that may hold a secret wherever they appear in a log line (tokens, passwords, cookies, signal and OIDC
 * secrets): censored before the line is written, whoever logs them.
 */
const SECRET_FIELDS = ['authorization', 'cookie', 'password', 'secret', 'token', 'clientSecret', 'secretKey', 'apiKey'];
const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => [
  field,
  `*.${field}`,
  `*.*.${field}`,
  `headers["${field}"]`,
  `req.headers.${field}`,
]);

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { service: name }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
