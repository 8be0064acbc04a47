import type { Queryable } from '@bunting/platform';
import { feedbackStore } from './feedback-store.ts';

/** A person's answers to the UI's feedback prompts, as Unleash's `/api/admin/user` lists them. */
export async function feedbackGiven(db: Queryable, userId: number) {
  return [...(await feedbackStore.of(db, userId))];
}
