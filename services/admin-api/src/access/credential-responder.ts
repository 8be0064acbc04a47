import { VerifyCredentialRequest } from '@bunting/contracts';
import type { Messaging } from '@bunting/platform';
import type { CredentialService } from './credential-service.ts';

/** Answers other services' "who is this?" over NATS request-reply; replicas share the work as a queue group. */
export function answerCredentialRequests(messaging: Messaging, credentials: CredentialService) {
  const subscription = messaging.nc.subscribe(messaging.names.verifyCredential, {
    queue: 'admin-api',
    callback: (error, message) => {
      if (error) return;
      void (async () => {
        try {
          const request = VerifyCredentialRequest.parse(message.json());
          message.respond(JSON.stringify({ principal: await credentials.verify(request) }));
        } catch (failure) {
          // No answer: the caller times out and says 503 rather than wrongly calling the credential invalid.
          messaging.log.warn({ err: failure }, 'could not answer a credential request');
        }
      })();
    },
  });
  return { stop: () => subscription.unsubscribe() };
}
