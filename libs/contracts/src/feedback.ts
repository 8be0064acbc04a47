import { z } from 'zod';

/** POST /api/admin/feedback: a person answered one of the UI's feedback prompts (or asked never to see it). */
export const CreateFeedback = z.object({ feedbackId: z.string().min(1).max(100), neverShow: z.boolean().optional() });
/** PUT /api/admin/feedback/:id */
export const UpdateFeedback = z.object({
  userId: z.number().int().optional(),
  neverShow: z.boolean().optional(),
  given: z.iso.datetime({ offset: true }).nullable().optional(),
});
/** A person's answer to one prompt, as answered and as listed in /api/admin/user. */
export const FeedbackAnswer = z.object({
  userId: z.number().int(),
  feedbackId: z.string(),
  neverShow: z.boolean(),
  given: z.string().nullable(),
});
