import { z } from 'zod';

// What several identity resources (users, service accounts, invite links) take the same way.

/** A root role by id, or by name as Unleash takes them too; Reader is Unleash 8's read-only root role. */
export const RootRoleInput = z.union([z.number().int().min(1), z.enum(['Admin', 'Editor', 'Viewer', 'Reader'])]);
export const Email = z.email().max(255);
export const Password = z.string().min(8, 'must be at least 8 characters').max(128);
