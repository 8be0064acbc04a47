import type { SignInMethod } from '../sign-in-method.ts';
import { samlRoutes } from './saml-routes.ts';
import { loadSamlSettings } from './saml-settings.ts';
import { samlSettingsRoutes } from './saml-settings-routes.ts';

/** A SAML 2.0 identity provider signs people in (users found or created by e-mail, groups synced from an attribute). */
export const samlSignIn: SignInMethod = {
  type: 'saml',
  enabled: async (db) => (await loadSamlSettings(db)).enabled === true,
  offer: { message: 'Sign in with SAML 2.0', path: '/auth/saml/login' },
  routes(app, deps) {
    samlRoutes(app, deps);
    samlSettingsRoutes(app, deps);
  },
  // Signing out of Bunting goes on to the provider's sign-out page, when one is set, so its session ends too.
  signOutUrl: async (db) => (await loadSamlSettings(db)).signOutUrl,
};
