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
/**
 * The whole access of a project, as Unleash's PUT (and its Terraform provider) sends it: each role with every user
 * and group that holds it there. Whoever it does not name loses their roles in the project.
 */
export const ProjectAccessConfiguration = z.object({
  roles: z
    .array(
      z.object({
        id: z.number().int(),
        users: z.array(z.number().int()).max(10_000).optional(),
        groups: z.array(z.number().int()).max(1000).optional(),
      }),
    )
    .max(50),
});
export type ProjectAccessConfiguration = z.infer<typeof ProjectAccessConfiguration>;
export const RoleIds = z.object({ roles: z.array(z.number().int()).max(50) });
