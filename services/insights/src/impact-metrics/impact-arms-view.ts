import { ImpactArmsView } from '@bunting/contracts';
import { answerView, type DatabasePool, type Messaging } from '@bunting/platform';
import { impactArms } from './impact-arms.ts';

/** Answers admin-api's guardrails asking for a flag's sides of an impact metric (Bunting's own series only). */
export function answerImpactArms(deps: { db: DatabasePool; messaging: Messaging }) {
  return answerView(deps.messaging, ImpactArmsView, (query) => impactArms(deps.db, query));
}
