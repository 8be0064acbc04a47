import type { Change } from '../events/changes.ts';
import type { EmailSettings } from './email-settings.ts';
import { emailStore, type QueuedEmail } from './email-store.ts';

/** Where other slices queue mail, in the change that causes it; nothing is queued where no SMTP is configured. */
export function emailOutbox(settings: EmailSettings | null, baseUrl: string) {
  const host = new URL(baseUrl).hostname || 'bunting';
  return {
    enabled: settings !== null,
    /** Queues the mail; false (nothing queued) when this installation sends no e-mail. */
    async queue(change: Change, mail: QueuedEmail): Promise<boolean> {
      if (!settings) return false;
      await emailStore.queue(change.tx, mail, host);
      return true;
    },
    recentlyQueued: (...args: Parameters<typeof emailStore.recentlyQueued>) => emailStore.recentlyQueued(...args),
  };
}
export type EmailOutbox = ReturnType<typeof emailOutbox>;
