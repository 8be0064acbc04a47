import { ImpactArmsView, ImpactVariantsView } from '@bunting/contracts';
import { answerView, DomainError, inOneSnapshot, type DatabasePool, type Messaging } from '@bunting/platform';
import { metricReadModel } from '../sdk-metrics/metric-read-model.ts';
import { externalArms } from './external-arms.ts';
import { externalSource } from './external-source.ts';
import { loadExternalSource } from './external-source-settings.ts';
import { impactArms } from './impact-arms.ts';
import { impactVariants } from './impact-variants.ts';

const NONE = { total: 0, observations: null, squares: null };

/**
 * Answers admin-api's guardrails (a flag's two sides of an impact metric, from Bunting's own series or the external
 * source, with the exposures from the SDK metrics either way) and experiments (its variants per hour, Bunting's own).
 * An external source that cannot be read fails the question (503): the guardrail skips that look.
 */
export function answerImpactArms(deps: {
  db: DatabasePool;
  messaging: Messaging;
  externalUrlFromEnv: string | undefined;
}) {
  const arms = answerView(deps.messaging, ImpactArmsView, async (query) => {
    if (query.source !== 'external') return inOneSnapshot(deps.db, (tx) => impactArms(tx, query));
    const exposures = await metricReadModel.exposuresSince(deps.db, query.featureName, query.environment, query.since);
    try {
      const source = externalSource(await loadExternalSource(deps.db, deps.externalUrlFromEnv));
      return { ...(await externalArms(source, query, query.since)), exposures };
    } catch (error) {
      // Said in the answer (the guardrail records it and skips the look), not logged at every look.
      if (error instanceof DomainError)
        return { type: null, series: 0, on: NONE, off: NONE, exposures, error: error.message };
      throw error;
    }
  });
  const variants = answerView(deps.messaging, ImpactVariantsView, (query) =>
    inOneSnapshot(deps.db, (tx) => impactVariants(tx, query)),
  );
  return {
    stop() {
      arms.stop();
      variants.stop();
    },
  };
}
