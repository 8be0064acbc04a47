import type { HttpServer } from '@bunting/platform';
import type { LoginDeps } from './login-deps.ts';
import { SIGN_IN_METHODS } from './sign-in-methods.ts';
import { sessionRoutes } from './session-routes.ts';

/** The routes of every sign-in method, and signing out, which ends a session whichever method began it. */
export function signInRoutes(app: HttpServer, deps: LoginDeps) {
  for (const method of SIGN_IN_METHODS) method.routes(app, deps);
  sessionRoutes(app, deps);
}
