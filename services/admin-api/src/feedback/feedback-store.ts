import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

export const FeedbackRow = z.object({
  userId: z.number(),
  feedbackId: z.string(),
  given: z.string().nullable(),
  neverShow: z.boolean(),
});
export type FeedbackRow = z.infer<typeof FeedbackRow>;

const columns = sql.fragment`user_id as "userId", feedback_id as "feedbackId", given, never_show as "neverShow"`;

/** Each user's answers to the UI's feedback prompts. */
export const feedbackStore = {
  /** Creates or overwrites one answer; a field not given keeps what was there (or its default). */
  save(
    db: WriteTx,
    row: { userId: number; feedbackId: string; given?: string | null | undefined; neverShow?: boolean | undefined },
  ) {
    return db.one(sql.type(FeedbackRow)`
      insert into admin.user_feedback (user_id, feedback_id, given, never_show)
      values (${row.userId}, ${row.feedbackId}, ${row.given ?? null}, ${row.neverShow ?? false})
      on conflict (user_id, feedback_id) do update set
        given = ${row.given === undefined ? sql.fragment`admin.user_feedback.given` : sql.fragment`excluded.given`},
        never_show = ${row.neverShow === undefined ? sql.fragment`admin.user_feedback.never_show` : sql.fragment`excluded.never_show`}
      returning ${columns}`);
  },
  of(db: Queryable, userId: number) {
    return db.any(
      sql.type(FeedbackRow)`select ${columns} from admin.user_feedback where user_id = ${userId} order by feedback_id`,
    );
  },
};
