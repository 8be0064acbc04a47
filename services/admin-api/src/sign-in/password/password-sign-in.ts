import type { SignInMethod } from '../sign-in-method.ts';
import { passwordLoginRoutes } from './password-login-routes.ts';
import { passwordResetRoutes } from './password-reset-routes.ts';
import { loadPasswordSettings } from './password-settings.ts';
import { passwordSettingsRoutes } from './password-settings-routes.ts';

/** A user name or e-mail and a password, with reset links and brute-force protection; on unless turned off. */
export const passwordSignIn: SignInMethod = {
  type: 'password',
  enabled: async (db) => !(await loadPasswordSettings(db)).disabled,
  offer: { message: 'Sign in with a user name and password', path: '/auth/simple/login' },
  routes(app, deps) {
    passwordLoginRoutes(app, deps);
    passwordResetRoutes(app, deps);
    passwordSettingsRoutes(app, deps);
  },
};
