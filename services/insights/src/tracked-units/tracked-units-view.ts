import { TrackedUnitsView } from '@bunting/contracts';
import { answerView, type DatabasePool, type Messaging } from '@bunting/platform';
import type { z } from 'zod';
import { trackedUnits } from './tracked-units.ts';

type Answer = z.infer<typeof TrackedUnitsView.answer>;

/**
 * How long a finished answer is reused. Per-user sums read every user's rows (about 3 s at 100,000 users): what bounds
 * the load is that one reading per question runs at a time; the short reuse covers several people looking at once.
 */
const FRESH_MS = 5_000;
const KEPT = 200;

/**
 * Answers admin-api's experiments on tracked metrics: per-user figures per answer and day. A question being read is
 * waited for, not started again, and a reading is reused for a few seconds: pages left open and people looking at
 * once cannot make the database read every user's rows over and over at the same time.
 */
export function answerTrackedUnits(deps: { db: DatabasePool; messaging: Messaging }) {
  const recent = new Map<string, { at: number; answer: Promise<Answer>; done: boolean }>();
  return answerView(deps.messaging, TrackedUnitsView, (query) => {
    const key = JSON.stringify(query);
    const now = Date.now();
    const held = recent.get(key);
    if (held && (now - held.at < FRESH_MS || !held.done)) return held.answer;
    const answer = trackedUnits(deps.db, query, now);
    const entry = { at: now, answer, done: false };
    recent.delete(key);
    recent.set(key, entry);
    // Reused from when it is done; a failed reading is not kept; the oldest question goes past KEPT.
    answer.then(
      () => {
        entry.done = true;
        entry.at = Date.now();
      },
      () => recent.delete(key),
    );
    if (recent.size > KEPT) recent.delete(recent.keys().next().value!);
    return answer;
  });
}
