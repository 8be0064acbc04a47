import type { ComponentType } from 'react';
import { OidcSettingsSection } from './oidc/oidc-settings.tsx';
import { PasswordLoginForm } from './password/password-login-form.tsx';
import { PasswordSettings } from './password/password-settings.tsx';
import { SamlSettingsSection } from './saml/saml-settings.tsx';

/**
 * One way of signing in, as the console shows it. A new method (as admin-api's sign-in/ has one folder per method)
 * is a folder here with its settings and, for the main method, its form, listed below; the sign-in page and the
 * sign-in settings page read this list.
 */
export type SignInMethodView = {
  /** As admin-api and the 401's sign-in options name it. */
  type: string;
  title: string;
  /** Its section of the sign-in settings page. */
  Settings: ComponentType;
  /** The form the sign-in page shows when the 401 names this the main method; others are buttons to their path. */
  LoginForm?: ComponentType<{ onSignedIn: () => void }>;
};

export const SIGN_IN_METHODS: readonly SignInMethodView[] = [
  { type: 'password', title: 'Passwords', Settings: PasswordSettings, LoginForm: PasswordLoginForm },
  { type: 'oidc', title: 'OpenID Connect', Settings: OidcSettingsSection },
  { type: 'saml', title: 'SAML 2.0', Settings: SamlSettingsSection },
];
