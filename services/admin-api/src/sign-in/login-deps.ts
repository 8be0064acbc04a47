import type { AdminDeps } from '../app-deps.ts';

/** What the sign-in routes are built from. */
export type LoginDeps = Pick<
  AdminDeps,
  'db' | 'changes' | 'redis' | 'config' | 'namespace' | 'sessions' | 'mail' | 'log'
>;
