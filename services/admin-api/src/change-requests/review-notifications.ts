import type { Change } from '../events/changes.ts';
import type { EmailOutbox } from '../email/email-outbox.ts';
import { reviewRequestMessage } from '../email/email-messages.ts';
import { userReadModel } from '../users/user-read-model.ts';
import { changeRequestReviewers } from './change-request-reviewers.ts';
import type { RequestRow } from './change-request-store.ts';

/**
 * A change request sent to review is mailed, in the same change, to the reviewers its author asked for, else to
 * everyone who may approve it there; never to its author, nor to people who turned such mail off.
 */
export async function mailReviewers(
  change: Change,
  mail: EmailOutbox,
  request: RequestRow,
  baseUrl: string,
): Promise<number> {
  if (!mail.enabled) return 0;
  const scope = { project: request.project, environment: request.environment };
  const asked = await changeRequestReviewers.requested(change.tx, request.id);
  const candidates = (asked.length > 0 ? asked : await changeRequestReviewers.available(change.tx, scope)).filter(
    (reviewer) => reviewer.id !== request.createdByUserId && reviewer.email !== '',
  );
  const wanting = new Set(
    await userReadModel.wantingChangeRequestMail(
      change.tx,
      candidates.map((reviewer) => reviewer.id),
    ),
  );
  const link = new URL(
    `/projects/${encodeURIComponent(request.project)}/change-requests/${request.id}`,
    baseUrl,
  ).toString();
  let queued = 0;
  for (const reviewer of candidates.filter((candidate) => wanting.has(candidate.id))) {
    await mail.queue(
      change,
      reviewRequestMessage(
        { email: reviewer.email, userId: reviewer.id, name: reviewer.name ?? null },
        request,
        link,
        baseUrl,
      ),
    );
    queued += 1;
  }
  return queued;
}
