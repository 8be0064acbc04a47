import type { Queryable } from '@bunting/platform';
import { loadOidcSettings } from './oidc-settings.ts';
import { loadSimpleAuthSettings } from './simple-auth-settings.ts';

/**
 * How one may sign in, as Unleash's 401 says it (its UI, and the console, build the sign-in page from it): the
 * password form unless turned off, and OpenID Connect when on.
 */
export async function signInOptions(db: Queryable) {
  const [simple, oidc] = await Promise.all([loadSimpleAuthSettings(db), loadOidcSettings(db)]);
  return {
    path: '/auth/simple/login',
    type: 'password',
    defaultHidden: simple.disabled,
    options: oidc.enabled ? [{ type: 'oidc', message: 'Sign in with OpenID Connect', path: '/auth/oidc/login' }] : [],
  };
}
