import { randomUUID } from 'node:crypto';
import type { WriteTx } from '../events/write-tx.ts';
import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';

export type QueuedEmail = {
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  userId: number | null;
};

const Claimed = z.object({
  id: z.coerce.number(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  userId: z.number().nullable(),
  messageId: z.string(),
  attempts: z.number(),
});
export type ClaimedEmail = z.infer<typeof Claimed>;

/** E-mail waiting to be sent (the e-mail outbox). */
export const emailStore = {
  /** In the transaction of the change the mail belongs to. */
  async queue(tx: WriteTx, mail: QueuedEmail, host: string): Promise<void> {
    await tx.query(sql.unsafe`
      insert into admin.email_outbox (kind, recipient, subject, text_body, html_body, user_id, message_id)
      values (${mail.kind}, ${mail.recipient}, ${mail.subject}, ${mail.text}, ${mail.html}, ${mail.userId}, ${`<${randomUUID()}@${host}>`})`);
  },

  /**
   * Claims mail that is due for `leaseMs`: another replica skips it while the claim lasts, and takes it again if
   * this one never says how sending went (it stopped).
   */
  claimDue(db: WriteTx, limit: number, leaseMs: number) {
    return db.any(sql.type(Claimed)`
      update admin.email_outbox set claimed_until = now() + ${leaseMs} * interval '1 millisecond', attempts = attempts + 1
      where id in (
        select id from admin.email_outbox
        where sent_at is null and failed_at is null and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
        order by id limit ${limit} for update skip locked)
      returning id, kind, recipient, subject, text_body as text, html_body as html, user_id as "userId", message_id as "messageId", attempts`);
  },

  async sent(db: WriteTx, id: number): Promise<void> {
    await db.query(
      sql.unsafe`update admin.email_outbox set sent_at = now(), claimed_until = null, last_error = null where id = ${id}`,
    );
  },

  /** A failed attempt: tried again after `retryInMs`, or given up (`retryInMs` null). */
  async failed(db: WriteTx, id: number, error: string, retryInMs: number | null): Promise<void> {
    await db.query(sql.unsafe`
      update admin.email_outbox set claimed_until = null, last_error = ${error.slice(0, 1000)},
        next_attempt_at = now() + ${retryInMs ?? 0} * interval '1 millisecond',
        failed_at = case when ${retryInMs === null} then now() end
      where id = ${id}`);
  },

  /** Whether mail of `kind` to this user was queued within `withinMs` (a reset asked for again and again). */
  recentlyQueued(db: Queryable, userId: number, kind: string, withinMs: number) {
    return db.exists(sql.unsafe`
      select 1 from admin.email_outbox where user_id = ${userId} and kind = ${kind} and created_at > now() - ${withinMs} * interval '1 millisecond'`);
  },
};
