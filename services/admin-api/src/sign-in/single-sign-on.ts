import type { CreateUser } from '@bunting/contracts';
import { AuthenticationRequired, NoAccessError } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import type { UserRow } from '../users/user-read-model.ts';
import { userService } from '../users/user-service.ts';

/** What OpenID Connect and SAML share of their settings: who may be created on first sign-in, with what root role. */
type FirstSignIn = {
  autoCreate?: boolean | undefined;
  emailDomains?: string | undefined;
  defaultRootRoleId?: number | undefined;
  defaultRootRole?: Exclude<CreateUser['rootRole'], number> | undefined;
};

/** A value at a dotted path in a provider's claims or attributes ("groups", "realm_access.roles"), as a list of strings. */
export function claimValues(claims: Record<string, unknown>, path: string): string[] {
  let value: unknown = claims;
  for (const part of path.split('.').filter(Boolean)) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function emailAllowed(email: string, domains: string | undefined): boolean {
  const allowed = (domains ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  if (allowed.length === 0) return true;
  return allowed.includes(email.split('@').pop()!.toLowerCase());
}

/** A deactivated account (by SCIM) stays, but does not sign in. */
export function activeUser(user: UserRow): UserRow {
  if (!user.active) throw new AuthenticationRequired('This account has been deactivated; ask an admin.');
  return user;
}

/** A new user for a first sign-in, when the settings create users and the address is from an approved domain. */
export function createOnFirstSignIn(
  change: Change,
  settings: FirstSignIn,
  email: string,
  name: string | undefined,
): Promise<UserRow> {
  if (!settings.autoCreate || !emailAllowed(email, settings.emailDomains)) throw new NoAccessError('AUTO_CREATE_USER');
  return userService.create(change, {
    email,
    ...(name ? { name } : {}),
    rootRole: settings.defaultRootRoleId ?? settings.defaultRootRole ?? 'Viewer',
  });
}
