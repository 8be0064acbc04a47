import { z } from 'zod';
import { Email, Password, RootRoleInput } from './identity-inputs.ts';
import { Role } from './roles.ts';
import { FeedbackAnswer } from './feedback.ts';

export const User = z.object({
  id: z.number().int(),
  isAPI: z.boolean().optional(),
  name: z.string().nullable().optional(),
  email: z.string().optional(),
  username: z.string().nullable().optional(),
  imageUrl: z.string().optional(),
  inviteLink: z.string().optional(),
  loginAttempts: z.number().int().optional(),
  emailSent: z.boolean().optional(),
  rootRole: z.number().int().optional(),
  seenAt: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  accountType: z.string().optional(),
  permissions: z.array(z.string()).optional(),
  scimId: z.string().nullable().optional(),
  seatType: z.string().nullable().optional(),
  companyRole: z.string().nullable().optional(),
  productUpdatesEmailConsent: z.boolean().nullable().optional(),
});
export type User = z.infer<typeof User>;

export const Users = z.object({ users: z.array(User), rootRoles: z.array(Role).optional() });

export const CreateUser = z
  .object({
    username: z.string().min(1).max(255).optional(),
    email: Email.optional(),
    name: z.string().max(255).optional(),
    password: Password.optional(),
    rootRole: RootRoleInput,
    sendEmail: z.boolean().optional(),
  })
  .refine((user) => user.username !== undefined || user.email !== undefined, {
    message: 'email or username is required',
    path: ['email'],
  });
export type CreateUser = z.infer<typeof CreateUser>;

export const UpdateUser = z.object({
  email: Email.optional(),
  name: z.string().max(255).optional(),
  rootRole: RootRoleInput.optional(),
});

export const ChangePassword = z.object({ password: Password });
/** The caller's current password is required: a session alone (a stolen cookie) must not be enough to take the account. */
export const ChangeOwnPassword = z.object({
  password: Password,
  confirmPassword: Password.optional(),
  oldPassword: z.string().min(1, 'give your current password').max(128),
});

/** What a user is e-mailed about: change requests waiting for their review. */
export const NotificationPreferences = z.object({ changeRequests: z.boolean() });

export const Login = z.object({ username: z.string().min(1).max(255), password: z.string().min(1).max(1000) });

export const Profile = z.object({
  rootRole: Role,
  projects: z.array(z.string()),
  groups: z.array(
    z.object({ id: z.number(), name: z.string(), mappingsSSO: z.array(z.string()), rootRole: z.number().nullable() }),
  ),
  features: z.array(z.unknown()),
  subscriptions: z.array(z.string()),
  canChangePassword: z.boolean(),
});

/** GET /api/admin/user-admin/access */
export const AccessOverview = z.object({
  users: z.array(
    z.object({
      accountType: z.string(),
      email: z.string().optional(),
      id: z.number(),
      name: z.string().nullable(),
      username: z.string().nullable(),
    }),
  ),
  groups: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      userCount: z.number(),
      rootRole: z.number().nullable(),
    }),
  ),
});

/** GET /api/admin/user */
export const CurrentUser = z.object({
  user: User,
  permissions: z.array(
    z.object({
      permission: z.string(),
      project: z.string().optional(),
      environment: z.string().optional(),
    }),
  ),
  feedback: z.array(FeedbackAnswer),
  splash: z.record(z.string(), z.boolean()),
});

/** GET /api/admin/user/roles */
export const OwnRoles = z.object({
  version: z.number(),
  roles: z
    .array(
      z.object({
        id: z.number(),
        name: z.string(),
        description: z.string().nullable(),
        type: z.string(),
      }),
    )
    .readonly(),
});

/** GET /api/admin/user-admin/search */
export const UserSearchAnswer = z.array(User);

/** GET /api/admin/user-admin/admin-count */
export const AdminCounts = z.object({ password: z.number(), noPassword: z.number(), service: z.number() });

/** GET /api/admin/user-admin/inactive */
export const InactiveUsers = z.object({
  version: z.number(),
  inactiveUsers: z.array(
    z.object({
      id: z.number(),
      name: z.string().nullable(),
      username: z.string().nullable(),
      email: z.string().nullable(),
      seenAt: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
});
