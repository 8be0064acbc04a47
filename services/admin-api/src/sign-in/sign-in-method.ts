import type { HttpServer, Queryable } from '@bunting/platform';
import type { SessionRecord } from '../sessions/user-sessions.ts';
import type { LoginDeps } from './login-deps.ts';

/**
 * One way of signing in (password, OpenID Connect, ...): everything the rest of admin-api needs to know of it.
 * A new method is a folder beside password/ and oidc/ with one of these, listed in sign-in-methods.ts; the sign-in
 * options of a 401, the UI configuration, the inventory, logout and the route list read that list.
 */
export type SignInMethod = {
  /** The name a session records and the sign-in options say ('password', 'oidc'). */
  type: string;
  /** Whether the method is turned on now. */
  enabled(db: Queryable): Promise<boolean>;
  /** What the sign-in page offers for it: a button's words and the address it starts at. */
  offer: { message: string; path: string };
  /** Its routes: signing in, and the settings admins change. */
  routes(app: HttpServer, deps: LoginDeps): void;
  /** Where a browser signing out of a session this method started goes next (the provider's own sign-out). */
  signOutUrl?(db: Queryable, session: SessionRecord): Promise<string | undefined>;
};
