import { z } from 'zod';
import { ENVIRONMENT_PERMISSIONS, PROJECT_PERMISSIONS, ROOT_PERMISSIONS } from './permissions.ts';

/** Roles: the built-in and custom root and project roles, and the permissions they hold. */
export const Role = z.object({
  id: z.number().int(),
  type: z.string(),
  name: z.string(),
  description: z.string().optional(),
  project: z.string().nullable().optional(),
});
export type Role = z.infer<typeof Role>;

export const PermissionGrant = z.object({
  name: z.string().min(1).max(100),
  environment: z.string().max(100).optional(),
});
export const CreateRole = z.object({
  name: z.string().min(1).max(100),
  description: z.string().max(1000).optional(),
  type: z.enum(['root-custom', 'custom']).optional(),
  permissions: z
    .array(
      z.union([PermissionGrant, z.object({ id: z.number(), name: z.string(), environment: z.string().optional() })]),
    )
    .max(200)
    .optional(),
});
export type CreateRole = z.infer<typeof CreateRole>;

/** A role's permission: environment permissions name their environment. */
export const RolePermission = z.object({ name: z.string(), environment: z.string().optional() });

/** GET /api/admin/roles */
export const RoleList = z.object({
  version: z.number(),
  roles: z.array(Role),
});

/** A permission as the role editor offers it. */
const PermissionEntry = <const Names extends readonly [string, ...string[]]>(names: Names) =>
  z.object({ name: z.enum(names), displayName: z.enum(names), type: z.string() });

/** GET /api/admin/permissions */
export const PermissionList = z.object({
  root: z.array(PermissionEntry(ROOT_PERMISSIONS)),
  project: z.array(PermissionEntry(PROJECT_PERMISSIONS)),
  environments: z.array(z.object({ name: z.string(), permissions: z.array(PermissionEntry(ENVIRONMENT_PERMISSIONS)) })),
});

/** POST /api/admin/roles */
export const RoleWithPermissions = z.object({
  permissions: z.array(RolePermission),
  id: z.number(),
  type: z.string(),
  name: z.string(),
  description: z.string().optional(),
  project: z.string().nullable().optional(),
});
