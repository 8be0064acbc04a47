import type { Queryable } from '@bunting/platform';
import { oidcSignIn } from './oidc/oidc-sign-in.ts';
import { passwordSignIn } from './password/password-sign-in.ts';
import { samlSignIn } from './saml/saml-sign-in.ts';
import type { SignInMethod } from './sign-in-method.ts';

/** Every way of signing in, the password form first (Unleash's sign-in options name it as the main one). */
export const SIGN_IN_METHODS: readonly SignInMethod[] = [passwordSignIn, oidcSignIn, samlSignIn];

export const signInMethodOf = (type: string) => SIGN_IN_METHODS.find((method) => method.type === type);

/** Which methods are on now, by type. */
export async function signInMethodsEnabled(db: Queryable): Promise<Record<string, boolean>> {
  const enabled = await Promise.all(SIGN_IN_METHODS.map((method) => method.enabled(db)));
  return Object.fromEntries(SIGN_IN_METHODS.map((method, index) => [method.type, enabled[index]!]));
}
