import type { Messaging, Queryable } from '@bunting/platform';
import type { CredentialService } from '../credentials/credential-service.ts';
import { answerCredentialView } from './credential-view.ts';
import { answerFeatureLookupView } from './feature-lookup-view.ts';
import { answerFrontendSettingsView } from './frontend-settings-view.ts';
import { answerInventoryView } from './inventory-view.ts';
import { answerProjectOverviewView } from './project-overview-view.ts';
import { answerSdkTokensView } from './sdk-tokens-view.ts';
import { answerSnapshotView } from './snapshot-view.ts';

/**
 * Everything other services may ask admin-api, in one place: each view's request and answer are contracts in
 * libs/contracts (published-views.ts), asked with askView from libs/platform.
 */
export function answerPublishedViews(deps: {
  messaging: Messaging;
  db: Queryable;
  credentials: Pick<CredentialService, 'verify'>;
}) {
  const { messaging, db } = deps;
  const answering = [
    answerCredentialView(messaging, deps.credentials),
    answerSnapshotView(messaging, db),
    answerSdkTokensView(messaging, db),
    answerFrontendSettingsView(messaging, db),
    answerInventoryView(messaging, db),
    answerProjectOverviewView(messaging, db),
    answerFeatureLookupView(messaging, db),
  ];
  return {
    stop: () => {
      for (const view of answering) view.stop();
    },
  };
}
