import type { SdkToken } from '@bunting/contracts';
import { recordKeeping } from '../events/write-tx.ts';
import type { DatabasePool, Queryable } from '@bunting/platform';
import { apiTokenStore, type ApiTokenRow } from './api-token-store.ts';
import { hashSecret } from './token-secret.ts';

export type { ApiTokenRow };

/** What credential checks may ask of API tokens. */
export const apiTokenReadModel = {
  /** The token a secret belongs to, expired or not; null for an unknown secret. */
  findBySecret: (db: Queryable, secret: string) => apiTokenStore.findByHash(db, hashSecret(secret)),
  /** Every token as the SDK edge checks it. */
  async sdkTokens(db: Queryable, hash?: string): Promise<SdkToken[]> {
    return (await apiTokenStore.hashes(db, hash)).map(({ tokenName, ...token }) => ({ ...token, name: tokenName }));
  },
  /** Records that tokens were used (seenAt), in batches off the request path. */
  recordUse: (db: DatabasePool, ids: number[]) => recordKeeping(db, (tx) => apiTokenStore.touchSeen(tx, ids)),
};
