import { createTransport } from 'nodemailer';
import { recordKeeping } from '../events/write-tx.ts';
import type { DatabasePool, Logger, Metrics } from '@bunting/platform';
import type { EmailSettings } from './email-settings.ts';
import { emailStore, type ClaimedEmail } from './email-store.ts';

const BATCH = 10;
// Longer than one attempt can take (the transport's timeouts below), so a claim outlives the attempt it covers.
const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 12;
const MAX_DELAY_MS = 30 * 60_000;

/** When a mail that failed `attempts` times is tried again, or null to give up. */
export function retryDelay(attempts: number, baseMs: number): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return Math.min(MAX_DELAY_MS, baseMs * 2 ** (attempts - 1));
}

/**
 * Sends what the e-mail outbox holds. Every admin-api replica runs one; a mail is claimed by one replica at a
 * time. A mail is sent at least once and, unless a replica stops between sending and marking it sent, once; a
 * mail sent twice carries the same Message-ID, which mail programs show once.
 */
export function startEmailSender(deps: {
  db: DatabasePool;
  settings: EmailSettings;
  log: Logger;
  metrics?: Metrics;
  /** After a mail went out (a welcome mail sets its user's emailSent). */
  onSent?: (mail: ClaimedEmail) => Promise<void>;
}) {
  const { db, settings, log } = deps;
  const outcomes = deps.metrics?.counter(
    'bunting_emails_total',
    'E-mail sending attempts, by outcome (sent, retried, given-up)',
    ['outcome'],
  );
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 15_000,
  });
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  async function send(mail: ClaimedEmail) {
    try {
      await transport.sendMail({
        from: settings.sender,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
      });
    } catch (error) {
      const retryIn = retryDelay(mail.attempts, settings.retryBaseMs);
      await recordKeeping(db, (tx) =>
        emailStore.failed(tx, mail.id, String((error as Error).message ?? error), retryIn),
      );
      outcomes?.inc({ outcome: retryIn === null ? 'given-up' : 'retried' });
      log.warn(
        { err: error, mail: mail.id, kind: mail.kind, attempts: mail.attempts, retryInMs: retryIn },
        retryIn === null ? 'e-mail given up' : 'e-mail not sent; trying again later',
      );
      return;
    }
    await recordKeeping(db, (tx) => emailStore.sent(tx, mail.id));
    outcomes?.inc({ outcome: 'sent' });
    await deps.onSent?.(mail);
  }

  async function tick() {
    const claim = () => recordKeeping(db, (tx) => emailStore.claimDue(tx, BATCH, LEASE_MS));
    for (let claimed = await claim(); claimed.length > 0 && !stopped; claimed = await claim()) {
      for (const mail of claimed) await send(mail);
    }
  }

  const timer = setInterval(() => {
    running = running
      .then(() => (stopped ? undefined : tick()))
      .catch((error: unknown) => log.warn({ err: error }, 'could not read the e-mail outbox; trying again'));
  }, settings.pollMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      transport.close();
    },
  };
}
