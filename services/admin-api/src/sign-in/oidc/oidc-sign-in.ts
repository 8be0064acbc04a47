import type { SignInMethod } from '../sign-in-method.ts';
import { singleSignOutUrl } from './oidc-provider.ts';
import { oidcRoutes } from './oidc-routes.ts';
import { loadOidcSettings } from './oidc-settings.ts';
import { oidcSettingsRoutes } from './oidc-settings-routes.ts';

/** An OpenID Connect provider signs people in (users created or linked by e-mail, groups synced from a claim). */
export const oidcSignIn: SignInMethod = {
  type: 'oidc',
  enabled: async (db) => (await loadOidcSettings(db)).enabled === true,
  offer: { message: 'Sign in with OpenID Connect', path: '/auth/oidc/login' },
  routes(app, deps) {
    oidcRoutes(app, deps);
    oidcSettingsRoutes(app, deps);
  },
  signOutUrl: async (db, session) => (session.idToken ? singleSignOutUrl(db, session.idToken) : undefined),
};
