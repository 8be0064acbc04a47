import { TrackedUnitsView } from '@bunting/contracts';
import { answerView, type DatabasePool, type Messaging } from '@bunting/platform';
import { trackedUnits } from './tracked-units.ts';

/** Answers admin-api's experiments on tracked metrics: per-user figures per answer and day. */
export function answerTrackedUnits(deps: { db: DatabasePool; messaging: Messaging }) {
  return answerView(deps.messaging, TrackedUnitsView, (query) => trackedUnits(deps.db, query));
}
