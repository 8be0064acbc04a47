import { z } from 'zod';
import { CreateFeedback, FeedbackAnswer, UpdateFeedback, type Principal } from '@bunting/contracts';
import { ValidationError, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { feedbackStore } from './feedback-store.ts';

const FeedbackParams = z.object({ id: z.string().min(1).max(100) });

function personOf(principal: Principal): number {
  if (principal.userId === null || principal.userId <= 0)
    throw new ValidationError('Feedback is given by a person; an API token has none to give.');
  return principal.userId;
}

/**
 * The web UI's feedback prompts (Unleash's POST and PUT /api/admin/feedback): whether the signed-in person answered
 * one, or asked never to see it again. A preference of the person, not of the instance: no event, as in Unleash.
 */
export function feedbackRoutes(app: HttpServer, { changes }: Pick<AdminDeps, 'changes'>) {
  app.post(
    '/api/admin/feedback',
    {
      schema: {
        summary: "Record the caller's answer to a feedback prompt",
        body: CreateFeedback,
        response: { 200: FeedbackAnswer },
      },
    },
    async (request) => {
      const principal = allowRead(request);
      const userId = personOf(principal);
      return changes.run(principal, (change) =>
        feedbackStore.save(change.tx, {
          userId,
          feedbackId: request.body.feedbackId,
          given: new Date().toISOString(),
          neverShow: request.body.neverShow ?? false,
        }),
      );
    },
  );

  app.put(
    '/api/admin/feedback/:id',
    {
      schema: {
        summary: "Change the caller's answer to a feedback prompt",
        params: FeedbackParams,
        body: UpdateFeedback,
        response: { 200: FeedbackAnswer },
      },
    },
    async (request) => {
      const principal = allowRead(request);
      const userId = personOf(principal);
      return changes.run(principal, (change) =>
        feedbackStore.save(change.tx, {
          userId,
          feedbackId: request.params.id,
          given: request.body.given,
          neverShow: request.body.neverShow,
        }),
      );
    },
  );
}
