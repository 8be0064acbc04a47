import { ImpactArmsView, ImpactVariantsView } from '@bunting/contracts';
import { answerView, type DatabasePool, type Messaging } from '@bunting/platform';
import { impactArms } from './impact-arms.ts';
import { impactVariants } from './impact-variants.ts';

/**
 * Answers admin-api's guardrails (a flag's two sides of an impact metric) and experiments (its variants per hour),
 * from Bunting's own series only.
 */
export function answerImpactArms(deps: { db: DatabasePool; messaging: Messaging }) {
  const arms = answerView(deps.messaging, ImpactArmsView, (query) => impactArms(deps.db, query));
  const variants = answerView(deps.messaging, ImpactVariantsView, (query) => impactVariants(deps.db, query));
  return {
    stop() {
      arms.stop();
      variants.stop();
    },
  };
}
