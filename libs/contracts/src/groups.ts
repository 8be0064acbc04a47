import { z } from 'zod';
import { User } from './users.ts';

export const GroupUserInput = z.object({ user: z.object({ id: z.number().int() }) });
export const CreateGroup = z.object({
  name: z.string().min(1).max(100),
  description: z.string().max(1000).nullable().optional(),
  mappingsSSO: z.array(z.string().max(255)).max(100).optional(),
  rootRole: z.number().int().nullable().optional(),
  users: z.array(GroupUserInput).max(10_000).optional(),
});
export type CreateGroup = z.infer<typeof CreateGroup>;

/** POST /api/admin/groups */
export const GroupAnswer = z.object({
  users: z.array(
    z.object({
      joinedAt: z.string(),
      /** Who added them: a person's name, "scim", or the sign-in method ("oidc", "saml") that synced them. */
      createdBy: z.string().nullable(),
      user: User,
    }),
  ),
  userCount: z.number(),
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  rootRole: z.number().nullable(),
  mappingsSSO: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  /** Present when an identity provider manages the group through SCIM. */
  scimId: z.string().nullable(),
});

/** GET /api/admin/groups */
export const GroupList = z.object({ groups: z.array(GroupAnswer) });
