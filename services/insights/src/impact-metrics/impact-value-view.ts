import { ImpactValueView } from '@bunting/contracts';
import { answerView, DomainError, type DatabasePool, type Messaging } from '@bunting/platform';
import { externalSource } from './external-source.ts';
import { loadExternalSource } from './external-source-settings.ts';
import { impactValueNow } from './impact-value.ts';

/**
 * Answers admin-api's safeguards asking an impact metric's value now. A source that cannot be read is answered
 * as such (value null with the reason), so a safeguard skips the reading instead of tripping or clearing on it.
 */
export function answerImpactValues(deps: {
  db: DatabasePool;
  messaging: Messaging;
  externalUrlFromEnv: string | undefined;
}) {
  return answerView(deps.messaging, ImpactValueView, async (query) => {
    try {
      if (query.source === 'external')
        return {
          value: await externalSource(await loadExternalSource(deps.db, deps.externalUrlFromEnv)).valueNow(query),
        };
      return { value: await impactValueNow(deps.db, query) };
    } catch (error) {
      if (error instanceof DomainError) return { value: null, error: error.message };
      throw error;
    }
  });
}
