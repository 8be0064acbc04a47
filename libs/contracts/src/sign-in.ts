import { z } from 'zod';
import { Role } from './roles.ts';

/**
 * Signing in, one section per method (password, OpenID Connect) and what they share: the options a 401 names
 * and the sign-in itself.
 */

/** Another way to sign in, as a 401 names it. */
export const SignInOption = z.object({ type: z.string(), message: z.string(), path: z.string() });

/** Whether password sign-in is turned off (Unleash: simple auth). */
export const SimpleAuthSettings = z.object({ disabled: z.boolean() });

/** OpenID Connect sign-in as an admin sets it up (oidcSettingsSchema). */
export const OidcSettingsInput = z.object({
  enabled: z.boolean().optional(),
  discoverUrl: z.url().max(1000).optional(),
  clientId: z.string().max(1000).optional(),
  secret: z.string().max(1000).optional(),
  autoCreate: z.boolean().optional(),
  enableSingleSignOut: z.boolean().optional(),
  defaultRootRole: z.enum(['Viewer', 'Editor', 'Admin']).optional(),
  defaultRootRoleId: z.number().int().optional(),
  emailDomains: z.string().max(2000).optional(),
  acrValues: z.string().max(1000).optional(),
  idTokenSigningAlgorithm: z.enum(['RS256', 'RS384', 'RS512']).optional(),
  enableGroupSyncing: z.boolean().optional(),
  groupJsonPath: z.string().max(255).optional(),
  addGroupsScope: z.boolean().optional(),
});
export type OidcSettingsInput = z.infer<typeof OidcSettingsInput>;

/**
 * POST /api/admin/auth/saml/settings (Unleash's names): the identity provider's entity id, single sign-on and sign-out
 * addresses and signing certificate; users created on first sign-in (from approved e-mail domains) with a root role;
 * groups synced from an attribute. The certificate is public: nothing here is secret.
 */
export const SamlSettingsInput = z.object({
  enabled: z.boolean().optional(),
  /** The identity provider's entity id: the Issuer every response and assertion must name. */
  entityId: z.string().max(1000).optional(),
  /** The provider's SAML metadata (XML), when given: fills the entity id, addresses and certificate left out. */
  idpMetadata: z.string().max(200_000).optional(),
  signOnUrl: z.url().max(2000).optional(),
  signOutUrl: z.url().max(2000).optional(),
  certificate: z.string().max(20_000).optional(),
  autoCreate: z.boolean().optional(),
  defaultRootRole: z.enum(['Viewer', 'Editor', 'Admin', 'Reader']).optional(),
  defaultRootRoleId: z.number().int().optional(),
  emailDomains: z.string().max(2000).optional(),
  enableGroupSyncing: z.boolean().optional(),
  groupJsonPath: z.string().max(255).optional(),
});
export type SamlSettingsInput = z.infer<typeof SamlSettingsInput>;

// Answers: what the routes of this resource send.

/** GET /api/admin/auth/saml/settings, with what the identity provider is given about this service provider. */
export const SamlSettingsView = SamlSettingsInput.extend({
  spEntityId: z.string(),
  acsUrl: z.string(),
  metadataUrl: z.string(),
});

/** GET /api/admin/auth/oidc/settings: the settings as given (the secret masked), the discovery address as stored. */
export const OidcSettingsView = OidcSettingsInput.extend({ discoverUrl: z.string().optional() });

/** POST /api/admin/user-admin/reset-password */
export const ResetPasswordLink = z.object({ resetPasswordUrl: z.string() });

/** GET /auth/reset/validate */
export const ResetTokenOwner = z.object({
  id: z.number(),
  name: z.string().optional(),
  email: z.string(),
  token: z.string(),
  createdBy: z.null(),
  role: Role.nullable(),
});

/** GET /api/admin/auth/simple/settings */
export const SimpleAuthSettingsView = SimpleAuthSettings;
