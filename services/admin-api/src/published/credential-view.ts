import { CredentialView } from '@bunting/contracts';
import { answerView, type Messaging } from '@bunting/platform';
import type { CredentialService } from '../credentials/credential-service.ts';

/** Answers other services' "who is this?". A failure is answered as such, so the asker says 503 at once. */
export function answerCredentialView(messaging: Messaging, credentials: Pick<CredentialService, 'verify'>) {
  return answerView(messaging, CredentialView, (request) => credentials.verify(request));
}
