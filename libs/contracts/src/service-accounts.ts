import { z } from 'zod';
import { RootRoleInput } from './identity-inputs.ts';
import { Role } from './roles.ts';
import { User } from './users.ts';

export const CreateServiceAccount = z.object({
  username: z.string().min(1).max(255),
  name: z.string().max(255).optional(),
  rootRole: RootRoleInput,
});
export const UpdateServiceAccount = z.object({
  name: z.string().max(255).optional(),
  rootRole: RootRoleInput.optional(),
});

/** GET /api/admin/service-account */
export const ServiceAccountList = z.object({
  serviceAccounts: z.array(User),
  rootRoles: z.array(Role),
});
