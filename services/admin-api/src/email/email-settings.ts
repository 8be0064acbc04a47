import { readBoolean, readInteger, type Env } from '@bunting/platform';

/** The SMTP server e-mail goes through, named as Unleash names it; none when EMAIL_HOST is unset. */
export type EmailSettings = {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
  sender: string;
  /** The first retry's delay; each later one waits twice as long. */
  retryBaseMs: number;
  /** How often the outbox is looked at for mail that is due. */
  pollMs: number;
};

export function readEmailSettings(env: Env): EmailSettings | null {
  if (!env.EMAIL_HOST) return null;
  const secure = readBoolean(env.EMAIL_SECURE, false);
  return {
    host: env.EMAIL_HOST,
    port: readInteger(env.EMAIL_PORT, secure ? 465 : 587, 'EMAIL_PORT'),
    secure,
    user: env.EMAIL_USER || null,
    password: env.EMAIL_PASSWORD || null,
    sender: env.EMAIL_SENDER || 'Bunting <noreply@localhost>',
    retryBaseMs: Math.max(100, readInteger(env.EMAIL_RETRY_BASE_MS, 5_000, 'EMAIL_RETRY_BASE_MS')),
    pollMs: Math.min(3_600_000, Math.max(50, readInteger(env.EMAIL_POLL_MS, 1_000, 'EMAIL_POLL_MS'))),
  };
}
