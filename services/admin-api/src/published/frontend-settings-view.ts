import { FrontendSettingsView } from '@bunting/contracts';
import { answerView, type Messaging, type Queryable } from '@bunting/platform';
import { frontendSettings } from '../ui-config/frontend-origins.ts';

/** Answers frontend-api replicas asking for the CORS origins (at start, and after each setting change). */
export function answerFrontendSettingsView(messaging: Messaging, db: Queryable) {
  return answerView(messaging, FrontendSettingsView, () => frontendSettings.load(db));
}
