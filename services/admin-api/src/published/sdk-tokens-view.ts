import { SdkTokenView, SdkTokensView } from '@bunting/contracts';
import { answerView, type Messaging, type Queryable } from '@bunting/platform';
import { apiTokenReadModel } from '../api-tokens/api-token-read-model.ts';

/** Answers the SDK edge's replicas asking for the token set they verify SDK requests with (hashes, never secrets). */
export function answerSdkTokensView(messaging: Messaging, db: Queryable) {
  const all = answerView(messaging, SdkTokensView, () => apiTokenReadModel.sdkTokens(db));
  const one = answerView(
    messaging,
    SdkTokenView,
    async ({ hash }) => (await apiTokenReadModel.sdkTokens(db, hash))[0] ?? null,
  );
  return {
    stop: () => {
      all.stop();
      one.stop();
    },
  };
}
