import { z } from 'zod';
import { ENVIRONMENT_PERMISSIONS, PROJECT_PERMISSIONS, ROOT_PERMISSIONS } from './permissions.ts';

export const Role = z.object({
  id: z.number().int(),
  type: z.string(),
  name: z.string(),
  description: z.string().optional(),
  project: z.string().nullable().optional(),
});
export type Role = z.infer<typeof Role>;

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
});
export type User = z.infer<typeof User>;

export const Users = z.object({ users: z.array(User), rootRoles: z.array(Role).optional() });

// By name too, as Unleash takes them; Reader is Unleash 8's read-only root role.
const RootRoleInput = z.union([z.number().int().min(1), z.enum(['Admin', 'Editor', 'Viewer', 'Reader'])]);
const Email = z.email().max(255);
const Password = z.string().min(8, 'must be at least 8 characters').max(128);

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

export const GroupUserInput = z.object({ user: z.object({ id: z.number().int() }) });
export const CreateGroup = z.object({
  name: z.string().min(1).max(100),
  description: z.string().max(1000).nullable().optional(),
  mappingsSSO: z.array(z.string().max(255)).max(100).optional(),
  rootRole: z.number().int().nullable().optional(),
  users: z.array(GroupUserInput).max(10_000).optional(),
});
export type CreateGroup = z.infer<typeof CreateGroup>;

export const Pat = z.object({
  id: z.number().int().min(1),
  secret: z.string().optional(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
  userId: z.number().int(),
  description: z.string(),
  expiresAt: z.string(),
});
export type Pat = z.infer<typeof Pat>;
export const Pats = z.object({ pats: z.array(Pat) });
export const CreatePat = z.object({
  description: z.string().min(1).max(255),
  expiresAt: z.iso.datetime({ offset: true }),
});

export const CreateServiceAccount = z.object({
  username: z.string().min(1).max(255),
  name: z.string().max(255).optional(),
  rootRole: RootRoleInput,
});
export const UpdateServiceAccount = z.object({
  name: z.string().max(255).optional(),
  rootRole: RootRoleInput.optional(),
});

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

// Answers: what the routes of this resource send.

/** A role's permission: environment permissions name their environment. */
export const RolePermission = z.object({ name: z.string(), environment: z.string().optional() });

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

/** GET /api/admin/service-account */
export const ServiceAccountList = z.object({
  serviceAccounts: z.array(User),
  rootRoles: z.array(Role),
});

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

/** GET /api/admin/user */
/** POST /api/admin/feedback: a person answered one of the UI's feedback prompts (or asked never to see it). */
export const CreateFeedback = z.object({ feedbackId: z.string().min(1).max(100), neverShow: z.boolean().optional() });
/** PUT /api/admin/feedback/:id */
export const UpdateFeedback = z.object({
  userId: z.number().int().optional(),
  neverShow: z.boolean().optional(),
  given: z.iso.datetime({ offset: true }).nullable().optional(),
});
/** A person's answer to one prompt, as answered and as listed in /api/admin/user. */
export const FeedbackAnswer = z.object({
  userId: z.number().int(),
  feedbackId: z.string(),
  neverShow: z.boolean(),
  given: z.string().nullable(),
});

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
