import { z } from 'zod';
import { Email, Password } from './identity-inputs.ts';
import { User } from './users.ts';

export const CreateSignupToken = z.object({
  name: z.string().min(1).max(255),
  expiresAt: z.iso.datetime({ offset: true }),
});
export const UpdateSignupToken = z.object({
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  enabled: z.boolean().optional(),
});

export const CreateInvitedUser = z.object({
  username: z.string().min(1).max(255).optional(),
  email: Email,
  name: z.string().min(1).max(255),
  password: Password,
});
export type CreateInvitedUser = z.infer<typeof CreateInvitedUser>;

/** POST /api/admin/invite-link/tokens */
export const SignupTokenView = z.object({
  url: z.string(),
  users: z.array(User),
  role: z.object({ id: z.number(), name: z.string(), type: z.string() }).nullable(),
  secret: z.string(),
  name: z.string(),
  expiresAt: z.string(),
  enabled: z.boolean(),
  roleId: z.number(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});

/** GET /api/admin/invite-link/tokens */
export const SignupTokenList = z.object({ tokens: z.array(SignupTokenView) });
