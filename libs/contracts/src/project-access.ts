import { z } from 'zod';

export const ProjectAccessInput = z.object({
  roles: z.array(z.number().int()).min(1).max(50),
  users: z
    .array(z.union([z.number().int(), z.object({ id: z.number().int() })]))
    .max(10_000)
    .optional(),
  groups: z
    .array(z.union([z.number().int(), z.object({ id: z.number().int() })]))
    .max(1000)
    .optional(),
});
export const RoleIds = z.object({ roles: z.array(z.number().int()).max(50) });
