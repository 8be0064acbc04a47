import type { Queryable } from '@bunting/platform';
import { environmentState } from '../feature-state/environment-state.ts';

/** The project environments where any of the flags is on: archiving them changes what those environments serve. */
export const enabledIn = (project: string, features: readonly string[]) => async (db: Queryable) =>
  (await environmentState.listFor(db, features)).filter((state) => state.enabled).map((state) => ({ project, environment: state.environment }));
