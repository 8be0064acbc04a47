import { TrackedUnitsView } from '@bunting/contracts';
import { answerView, inOneSnapshot, type DatabasePool, type Messaging } from '@bunting/platform';
import type { z } from 'zod';
import { trackedUnits } from './tracked-units.ts';

type Answer = z.infer<typeof TrackedUnitsView.answer>;
type Held = { at: number; value: Answer | null; reading: Promise<Answer> | null };

/** How long a reading is taken as current; an older one is answered while a new one is read. */
const FRESH_MS = 5_000;
const KEPT = 200;

/**
 * Answers admin-api's experiments on tracked metrics: per-user figures per answer and day. Per-user sums read every
 * user's rows (3 s at 100,000 users), so one reading per question runs at a time, and once a question has been read
 * its last reading is answered at once (its `computedAt` says when) while a newer one is read: a results page stays
 * quick at any size, and pages left open cannot make Postgres read every user's rows over and over.
 */
export function answerTrackedUnits(deps: { db: DatabasePool; messaging: Messaging }) {
  const held = new Map<string, Held>();
  const read = (key: string, entry: Held, query: Parameters<typeof trackedUnits>[1]) => {
    const reading = inOneSnapshot(deps.db, (tx) => trackedUnits(tx, query)).then(
      (answer) => {
        entry.value = answer;
        entry.at = Date.now();
        entry.reading = null;
        return answer;
      },
      (error: unknown) => {
        entry.reading = null;
        if (entry.value === null) held.delete(key);
        throw error;
      },
    );
    entry.reading = reading;
    return reading;
  };
  return answerView(deps.messaging, TrackedUnitsView, async (query) => {
    const key = JSON.stringify(query);
    let entry = held.get(key);
    if (!entry) {
      entry = { at: 0, value: null, reading: null };
      held.set(key, entry);
      if (held.size > KEPT) held.delete(held.keys().next().value!);
    }
    const stale = Date.now() - entry.at >= FRESH_MS;
    if (stale && entry.reading === null) {
      const reading = read(key, entry, query);
      // A question read before is answered from its last reading; a background failure is retried next time.
      if (entry.value !== null) reading.catch(() => undefined);
    }
    return entry.value ?? entry.reading!;
  });
}
