import { createHash } from 'node:crypto';
import type { SdkToken } from '@bunting/contracts';

/** The SDK edge's copy of the API tokens it accepts: the cluster's token feed, or a standalone edge's tokens. */
export type SdkTokens = {
  /** The token a secret belongs to; null when none does; undefined while this edge holds no token set yet. */
  find: (secret: string) => SdkToken | null | undefined;
  /**
   * For a secret `find` does not know: one a moment old may still be on its way to this edge. Resolves with the
   * token once this edge has caught up with what its source held when asked, or null.
   */
  lookup: (secret: string) => Promise<SdkToken | null>;
  /** Whether a token set is held yet. */
  loaded: () => boolean;
  stop: () => void;
};

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
