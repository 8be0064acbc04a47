import { VerifyCredentialRequest } from '@bunting/contracts';
import { answerRequests, type Messaging } from '@bunting/platform';
import type { CredentialService } from './credential-service.ts';

/**
 * Answers other services' "who is this?" over NATS. On a failure it does not answer: the caller times out and
 * says 503 rather than wrongly calling the credential invalid.
 */
export function answerCredentialRequests(messaging: Messaging, credentials: CredentialService) {
  return answerRequests({
    messaging,
    subject: messaging.names.verifyCredential,
    queue: 'admin-api',
    handle: async (request) => JSON.stringify({ principal: await credentials.verify(VerifyCredentialRequest.parse(request)) }),
  });
}
