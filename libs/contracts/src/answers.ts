import { z } from 'zod';
import { Event, EventType } from './events.ts';
import { Role, User } from './identity.ts';

/** A role's permission: environment permissions name their environment. */
const RolePermission = z.object({ name: z.string(), environment: z.string().optional() });

/** An application as SDK registrations describe it, with where its flags are used. */
const Application = z.object({
  appName: z.string(),
  sdkVersion: z.string().optional(),
  description: z.string().optional(),
  url: z.string().optional(),
  color: z.string().optional(),
  icon: z.string().optional(),
  strategies: z.array(z.string()),
  usage: z.array(z.object({ project: z.string(), environments: z.array(z.string()) })),
});

// Answers of routes whose shape is not one contract of its own: what each route sends, field by field.

/** POST /api/admin/addons */
export const AddonView = z.object({
  id: z.number(),
  provider: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  parameters: z.record(z.string(), z.unknown()),
  events: z.array(z.string()),
  projects: z.array(z.string()),
  environments: z.array(z.string()),
});

/** GET /api/admin/addons */
export const AddonList = z.object({
  addons: z.array(AddonView),
  providers: z.array(z.object({
    name: z.string(),
    displayName: z.string(),
    description: z.string(),
    documentationUrl: z.string(),
    parameters: z.array(z.object({
      name: z.string(),
      displayName: z.string(),
      placeholder: z.string().optional(),
      type: z.string(),
      required: z.boolean(),
      sensitive: z.boolean(),
    })),
    events: z.array(EventType),
  })),
});

/** GET /api/admin/addons/:id/events */
export const AddonDeliveries = z.object({
  integrationEvents: z.array(z.object({
    id: z.string(),
    integrationId: z.number(),
    createdAt: z.string(),
    state: z.string(),
    stateDetails: z.string(),
    event: z.record(z.string(), z.unknown()),
    details: z.record(z.string(), z.unknown()),
  })).readonly(),
});

/** GET /api/admin/api-tokens */
export const ApiTokenList = z.object({
  tokens: z.array(z.object({
    tokenName: z.string(),
    type: z.enum(["admin", "client", "frontend", "backend"]),
    environment: z.string(),
    project: z.string(),
    projects: z.array(z.string()),
    expiresAt: z.string().nullable(),
    createdAt: z.string(),
    seenAt: z.string().nullable(),
    alias: z.string().nullable(),
    id: z.number().optional(),
    secret: z.string().nullable().optional(),
    secure: z.boolean().optional(),
  })),
});

/** GET /api/admin/auth/oidc/settings */
export const OidcSettingsView = z.object({
  enabled: z.boolean().optional(),
  discoverUrl: z.string().optional(),
  clientId: z.string().optional(),
  secret: z.string().optional(),
  autoCreate: z.boolean().optional(),
  enableSingleSignOut: z.boolean().optional(),
  defaultRootRole: z.enum(["Viewer", "Editor", "Admin"]).optional(),
  defaultRootRoleId: z.number().optional(),
  emailDomains: z.string().optional(),
  acrValues: z.string().optional(),
  idTokenSigningAlgorithm: z.enum(["RS256", "RS384", "RS512"]).optional(),
  enableGroupSyncing: z.boolean().optional(),
  groupJsonPath: z.string().optional(),
  addGroupsScope: z.boolean().optional(),
});

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
export const SimpleAuthSettingsView = z.object({ disabled: z.boolean() });

/** GET ${base}/config */
export const ChangeRequestConfigList = z.array(z.object({
  environment: z.string(),
  type: z.string(),
  changeRequestEnabled: z.boolean(),
  requiredApprovals: z.number().nullable(),
}));

/** POST /api/admin/projects/:projectId/environments/:environment/change-requests */
export const ChangeRequestAnswer = z.object({
  id: z.number(),
  environment: z.string(),
  minApprovals: z.number(),
  project: z.string(),
  features: z.array(z.object({
    name: z.string(),
    changes: z.array(z.object({
      id: z.number(),
      action: z.string(),
      payload: z.unknown(),
      createdBy: z.object({ username: z.string().nullable(), imageUrl: z.string().nullable() }),
      createdAt: z.string(),
      conflict: z.string().optional(),
    })),
    conflict: z.string().optional(),
  })),
  segments: z.array(z.object({
    id: z.number(),
    action: z.string(),
    payload: z.unknown(),
    createdBy: z.object({ username: z.string().nullable(), imageUrl: z.string().nullable() }),
    createdAt: z.string(),
    name: z.string(),
    conflict: z.string().optional(),
  })),
  approvals: z.array(z.object({
    createdBy: z.object({ username: z.string().nullable(), imageUrl: z.string().nullable(), id: z.number() }),
    createdAt: z.string(),
  })),
  rejections: z.array(z.object({
    createdBy: z.object({ username: z.string().nullable(), imageUrl: z.string().nullable(), id: z.number() }),
    createdAt: z.string(),
  })),
  comments: z.array(z.object({
    id: z.number(),
    text: z.string(),
    createdBy: z.object({ username: z.string().nullable(), imageUrl: z.string().nullable() }),
    createdAt: z.string(),
  })),
  createdBy: z.object({ username: z.string().nullable(), imageUrl: z.string().nullable() }),
  createdAt: z.string(),
  stateTimestamps: z.record(z.string(), z.string()),
  state: z.enum(["Draft", "In review", "Approved", "Scheduled", "Applied", "Cancelled", "Rejected"]),
  title: z.string().optional(),
  schedule: z.object({
    scheduledAt: z.string(),
    status: z.enum(["pending", "failed", "suspended"]),
    reason: z.string().optional(),
    failureReason: z.string().nullable().optional(),
  }).optional(),
});

/** GET base */
export const ChangeRequestList = z.array(ChangeRequestAnswer);

/** GET ${base}/count */
export const ChangeRequestCounts = z.object({
  total: z.number(),
  applied: z.number(),
  rejected: z.number(),
  reviewRequired: z.number(),
  approved: z.number(),
  scheduled: z.number(),
});

/** GET ${base}/scheduled */
export const ScheduledChangeRequests = z.array(z.object({
  title: z.string().optional(),
  id: z.number(),
  environment: z.string(),
}));

/** GET ${base}/available-reviewers/:environment */
export const ChangeRequestReviewers = z.object({
  reviewers: z.array(z.object({
    id: z.number(),
    email: z.string(),
    username: z.string().nullable(),
    name: z.string().nullable(),
    imageUrl: z.string().nullable(),
  })),
});

/** GET /api/admin/search/change-requests */
export const ChangeRequestSearchAnswer = z.object({
  changeRequests: z.array(z.object({
    id: z.number(),
    environment: z.string(),
    project: z.string(),
    createdBy: z.object({ id: z.number(), username: z.string().optional(), imageUrl: z.string().optional() }),
    createdAt: z.string(),
    features: z.array(z.string()),
    segments: z.array(z.string()),
    state: z.enum(["Draft", "In review", "Approved", "Scheduled", "Applied", "Cancelled", "Rejected"]),
    title: z.string().optional(),
    schedule: z.object({
      scheduledAt: z.string(),
      status: z.enum(["pending", "failed", "suspended"]),
      reason: z.string().optional(),
      failureReason: z.string().nullable().optional(),
    }).optional(),
  })),
  total: z.number(),
});

/** GET ${base}/:contextField/strategies */
export const StrategiesUsing = z.object({
  strategies: z.array(z.object({
    id: z.string(),
    featureName: z.string(),
    projectId: z.string(),
    environment: z.string(),
    strategyName: z.string(),
  })).readonly(),
});

/** GET ${base}/parents */
export const FeatureNameList = z.array(z.string()).readonly();

/** GET ${base}/dependencies */
export const FeatureDependencies = z.array(z.object({
  variants: z.array(z.string()).optional(),
  feature: z.string(),
  enabled: z.boolean(),
}));

/** GET /api/admin/projects/:projectId/dependencies */
export const ProjectHasDependencies = z.boolean();

/** POST /api/admin/projects/:projectId/archive/validate */
export const ArchiveValidation = z.object({
  parentsWithChildFeatures: z.array(z.string()).readonly(),
  hasDeletedDependencies: z.boolean(),
});

/** POST /edge/validate */
export const EdgeTokenValidation = z.object({
  tokens: z.array(z.object({
    token: z.string(),
    type: z.enum(["client", "frontend"]),
    projects: z.array(z.string()),
    environment: z.string(),
  })),
});

/** GET /api/admin/projects/:projectId/features/:featureName/environments/:environment */
export const FeatureEnvironmentView = z.object({
  name: z.string(),
  featureName: z.string(),
  environment: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  sortOrder: z.number(),
  variantCount: z.number(),
  strategies: z.array(z.object({
    id: z.string(),
    name: z.string(),
    title: z.string().nullable(),
    disabled: z.boolean(),
    featureName: z.string(),
    sortOrder: z.number(),
    segments: z.array(z.number()),
    constraints: z.array(z.object({
      contextName: z.string(),
      operator: z.string(),
      caseInsensitive: z.boolean().optional(),
      inverted: z.boolean().optional(),
      values: z.array(z.string()).optional(),
      value: z.string().optional(),
    })),
    variants: z.array(z.object({
      name: z.string(),
      weight: z.number(),
      weightType: z.enum(["variable", "fix"]),
      stickiness: z.string(),
      payload: z.object({ type: z.enum(["string", "number", "json", "csv"]), value: z.string() }).optional(),
    })),
    parameters: z.record(z.string(), z.string()),
    milestoneId: z.string().nullable().optional(),
  })),
  variants: z.array(z.object({
    name: z.string(),
    weight: z.number(),
    weightType: z.enum(["variable", "fix"]),
    stickiness: z.string(),
    payload: z.object({ type: z.enum(["string", "number", "json", "csv"]), value: z.string() }).optional(),
    overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })).optional(),
  })),
  lastSeenAt: z.string().nullable(),
  hasStrategies: z.boolean(),
  hasEnabledStrategies: z.boolean(),
  yes: z.number().optional(),
  no: z.number().optional(),
});

/** GET /api/admin/archive/features */
export const FeatureList = z.object({
  version: z.number(),
  features: z.array(z.object({
    name: z.string(),
    type: z.string(),
    description: z.string().nullable(),
    archived: z.boolean(),
    project: z.string(),
    enabled: z.boolean(),
    stale: z.boolean(),
    favorite: z.boolean(),
    impressionData: z.boolean(),
    createdAt: z.string().nullable(),
    archivedAt: z.string().nullable(),
    lastSeenAt: z.string().nullable(),
    environments: z.array(FeatureEnvironmentView),
    variants: z.array(z.object({
      name: z.string(),
      weight: z.number(),
      weightType: z.enum(["variable", "fix"]),
      stickiness: z.string(),
      payload: z.object({ type: z.enum(["string", "number", "json", "csv"]), value: z.string() }).optional(),
      overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })).optional(),
    })),
    strategies: z.array(z.unknown()),
    tags: z.array(z.object({
      value: z.string(),
      type: z.string(),
      color: z.string().nullable().optional(),
    })).nullable(),
    children: z.array(z.string()),
    dependencies: z.array(z.object({
      feature: z.string(),
      enabled: z.boolean(),
      variants: z.array(z.string()).optional(),
    })),
    createdBy: z.object({ id: z.number(), name: z.string(), imageUrl: z.string() }).optional(),
    lifecycle: z.object({
      stage: z.string(),
      enteredStageAt: z.string(),
      status: z.string().nullable().optional(),
    }).optional(),
    collaborators: z.object({
      users: z.array(z.object({ id: z.number(), name: z.string(), imageUrl: z.string() })),
    }).optional(),
    links: z.array(z.object({
      id: z.string(),
      url: z.string(),
      title: z.string().nullable(),
      feature: z.string(),
    })).optional(),
  })),
});

/** GET /api/admin/search/features */
export const FeatureSearchAnswer = z.object({
  total: z.number(),
  features: z.array(z.object({
    type: z.string(),
    description: z.string().nullable(),
    name: z.string(),
    createdAt: z.string().nullable(),
    tags: z.array(z.object({
      value: z.string(),
      type: z.string(),
      color: z.string().nullable().optional(),
    })).nullable(),
    createdBy: z.object({ id: z.number(), name: z.string(), imageUrl: z.string() }).optional(),
    project: z.string(),
    impressionData: z.boolean(),
    stale: z.boolean(),
    archivedAt: z.string().nullable(),
    favorite: z.boolean(),
    lastSeenAt: z.string().nullable(),
    lifecycle: z.object({
      stage: z.string(),
      enteredStageAt: z.string(),
      status: z.string().nullable().optional(),
    }).optional(),
    dependencyType: z.enum(["child", "parent"]).nullable(),
    environments: z.array(z.object({
      type: z.string(),
      enabled: z.boolean(),
      name: z.string(),
      environment: z.string(),
      sortOrder: z.number(),
      featureName: z.string(),
      lastSeenAt: z.string().nullable(),
      variantCount: z.number(),
      hasStrategies: z.boolean(),
      hasEnabledStrategies: z.boolean(),
      yes: z.number().optional(),
      no: z.number().optional(),
    })),
    segments: z.array(z.string()),
  })),
});

/** GET /api/admin/flag-creators */
export const FlagCreators = z.array(z.object({ id: z.number(), name: z.string() })).readonly();

/** GET /api/admin/feature-types */
export const FeatureTypeList = z.object({
  version: z.number(),
  types: z.array(z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    lifetimeDays: z.number().nullable(),
  })).readonly(),
});

/** PUT /api/admin/feature-types/:id/lifetime */
export const FeatureTypeView = z.object({
  lifetimeDays: z.number().nullable(),
  id: z.string(),
  name: z.string(),
  description: z.string(),
});

/** GET /api/admin/projects/:projectId/features/:featureName/lifecycle */
export const FeatureLifecycleStages = z.array(z.object({
  status: z.string().optional(),
  stage: z.string(),
  enteredStageAt: z.string(),
}));

/** GET /api/admin/lifecycle/count */
export const LifecycleCounts = z.object({
  initial: z.number(),
  preLive: z.number(),
  live: z.number(),
  completed: z.number(),
  archived: z.number(),
});

/** POST /api/admin/groups */
export const GroupAnswer = z.object({
  users: z.array(z.object({
    user: User,
  })),
  userCount: z.number(),
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  rootRole: z.number().nullable(),
  mappingsSSO: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});

/** GET /api/admin/groups */
export const GroupList = z.object({ groups: z.array(GroupAnswer) });

/** GET /api/admin/user-admin/access */
export const AccessOverview = z.object({
  users: z.array(z.object({
    accountType: z.string(),
    email: z.string().optional(),
    id: z.number(),
    name: z.string().nullable(),
    username: z.string().nullable(),
  })),
  groups: z.array(z.object({
    id: z.number(),
    name: z.string(),
    userCount: z.number(),
    rootRole: z.number().nullable(),
  })),
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

/** GET /api/admin/maintenance */
export const MaintenanceView = z.object({ enabled: z.boolean() });

/** GET /api/admin/service-account */
export const ServiceAccountList = z.object({
  serviceAccounts: z.array(User),
  rootRoles: z.array(Role),
});

/** GET /api/admin/personal-dashboard */
export const PersonalDashboard = z.object({
  projects: z.array(z.object({
    id: z.string(),
    name: z.string(),
    health: z.number(),
    technicalDebt: z.number(),
    memberCount: z.number(),
    featureCount: z.number(),
  })),
  flags: z.array(z.object({ name: z.string(), project: z.string(), type: z.string() })),
  admins: z.array(z.object({
    id: z.number(),
    name: z.string().optional(),
    username: z.string().optional(),
    imageUrl: z.string().optional(),
    email: z.string().optional(),
  })),
  projectOwners: z.array(z.object({
    ownerType: z.literal("user"),
    name: z.string(),
    imageUrl: z.string().optional(),
    email: z.string().nullable(),
  })),
});

/** POST /api/admin/playground */
export const PlaygroundAnswer = z.object({
  input: z.object({
    environment: z.string(),
    context: z.object({
      appName: z.string(),
      userId: z.string().optional(),
      sessionId: z.string().optional(),
      remoteAddress: z.string().optional(),
      currentTime: z.string().optional(),
      environment: z.string().optional(),
      properties: z.record(z.string(), z.string()).optional(),
    }).catchall(z.string()),
    projects: z.union([z.array(z.string()), z.literal("*")]).optional(),
  }),
  features: z.array(z.object({
    variants: z.array(z.object({
      name: z.string(),
      weight: z.number(),
      weightType: z.enum(["variable", "fix"]).optional(),
      stickiness: z.string().optional(),
      payload: z.object({ type: z.enum(["string", "number", "json", "csv"]), value: z.string() }).optional(),
      overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })).optional(),
    })),
    strategies: z.object({
      result: z.union([z.literal("unknown"), z.boolean()]),
      data: z.array(z.object({
        id: z.string(),
        name: z.string(),
        title: z.string().optional(),
        disabled: z.boolean(),
        parameters: z.record(z.string(), z.string()),
        constraints: z.array(z.object({
          contextName: z.string(),
          operator: z.string(),
          caseInsensitive: z.boolean().optional(),
          inverted: z.boolean().optional(),
          values: z.array(z.string()).optional(),
          value: z.string().optional(),
          result: z.boolean(),
        })),
        segments: z.array(z.object({
          id: z.number(),
          name: z.string(),
          result: z.boolean(),
          constraints: z.array(z.object({
            contextName: z.string(),
            operator: z.string(),
            caseInsensitive: z.boolean().optional(),
            inverted: z.boolean().optional(),
            values: z.array(z.string()).optional(),
            value: z.string().optional(),
            result: z.boolean(),
          })),
        })),
        result: z.union([
          z.object({ evaluationStatus: z.literal("complete"), enabled: z.boolean() }),
          z.object({
            evaluationStatus: z.literal("incomplete"),
            enabled: z.union([z.literal(false), z.literal("unknown")]),
          }),
        ]),
      })),
    }),
    isEnabledInCurrentEnvironment: z.boolean(),
    isEnabled: z.boolean(),
    hasUnsatisfiedDependency: z.boolean(),
    variant: z.object({
      name: z.string(),
      enabled: z.boolean(),
      payload: z.object({ type: z.enum(["string", "number", "json", "csv"]), value: z.string() }).optional(),
      feature_enabled: z.boolean(),
    }),
    name: z.string(),
    projectId: z.string(),
  })),
});

/** POST /api/admin/playground/advanced */
export const AdvancedPlaygroundAnswer = z.object({
  input: z.object({
    environments: z.array(z.string()),
    context: z.object({
      appName: z.string(),
      userId: z.string().optional(),
      sessionId: z.string().optional(),
      remoteAddress: z.string().optional(),
      currentTime: z.string().optional(),
      environment: z.string().optional(),
      properties: z.record(z.string(), z.string()).optional(),
    }).catchall(z.string()),
    projects: z.union([z.array(z.string()), z.literal("*")]).optional(),
  }),
  features: z.array(z.object({
    name: z.string(),
    projectId: z.string(),
    environments: z.record(z.string(), z.array(z.unknown())),
  })),
});

/** GET /api/admin/projects/:projectId/access */
export const ProjectAccessView = z.object({
  roles: z.array(Role),
  users: z.array(z.object({
    roleId: z.number().optional(),
    roles: z.array(z.number()),
    id: z.number(),
    isAPI: z.boolean().optional(),
    name: z.string().nullable().optional(),
    email: z.string().optional(),
    username: z.string().nullable().optional(),
    imageUrl: z.string().optional(),
    inviteLink: z.string().optional(),
    loginAttempts: z.number().optional(),
    emailSent: z.boolean().optional(),
    rootRole: z.number().optional(),
    seenAt: z.string().nullable().optional(),
    createdAt: z.string().optional(),
    accountType: z.string().optional(),
    permissions: z.array(z.string()).optional(),
    scimId: z.string().nullable().optional(),
  })),
  groups: z.array(z.object({
    id: z.number(),
    name: z.string(),
    roleId: z.number().optional(),
    roles: z.array(z.number()),
  })),
});

/** GET /api/admin/projects/roles/:roleId/access */
export const RoleProjectAccess = z.array(z.object({ userId: z.number(), project: z.string() })).readonly();

/** POST /api/admin/projects/:projectId/environments/:environment/default-strategy */
export const DefaultStrategyView = z.object({
  name: z.string(),
  title: z.string().nullable(),
  disabled: z.boolean(),
  constraints: z.array(z.object({
    contextName: z.string(),
    operator: z.string(),
    caseInsensitive: z.boolean().optional(),
    inverted: z.boolean().optional(),
    values: z.array(z.string()).optional(),
    value: z.string().optional(),
  })),
  parameters: z.record(z.string(), z.string()),
  variants: z.array(z.object({
    name: z.string(),
    weight: z.number(),
    weightType: z.enum(["variable", "fix"]),
    stickiness: z.string(),
    payload: z.object({ type: z.enum(["string", "number", "json", "csv"]), value: z.string() }).optional(),
  })),
  segments: z.array(z.number()),
});

/** GET /api/admin/projects */
export const ProjectList = z.object({
  version: z.number(),
  projects: z.array(z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    health: z.number(),
    featureCount: z.number(),
    staleFeatureCount: z.number(),
    potentiallyStaleFeatureCount: z.number(),
    memberCount: z.number(),
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
    archivedAt: z.string().nullable(),
    favorite: z.boolean(),
    mode: z.enum(["open", "protected", "private"]),
    defaultStickiness: z.string(),
    featureLimit: z.number().nullable(),
    featureNaming: z.object({
      pattern: z.string().nullable(),
      example: z.string().nullable().optional(),
      description: z.string().nullable().optional(),
    }),
    environments: z.array(z.string()),
    technicalDebt: z.number().optional(),
    lastUpdatedAt: z.string().nullable().optional(),
    lastReportedFlagUsage: z.string().nullable().optional(),
    onboardingStatus: z.union([
      z.object({ status: z.enum(["onboarding-started", "sdk-connected", "onboarded"]) }),
      z.object({ status: z.literal("first-flag-created"), feature: z.string() }),
    ]).optional(),
    owners: z.array(z.union([
      z.object({
        ownerType: z.literal("user"),
        name: z.string(),
        email: z.string().nullable(),
        imageUrl: z.string().nullable(),
      }),
      z.object({ ownerType: z.literal("group"), name: z.string() }),
      z.object({ ownerType: z.literal("system") }),
    ])).optional(),
  })),
});

/** GET /api/admin/roles */
export const RoleList = z.object({
  version: z.number(),
  roles: z.array(Role),
});

/** GET /api/admin/permissions */
export const PermissionList = z.object({
  root: z.array(z.object({
    name: z.enum([
      "ADMIN",
      "CREATE_PROJECT",
      "CREATE_SEGMENT",
      "UPDATE_SEGMENT",
      "DELETE_SEGMENT",
      "CREATE_CONTEXT_FIELD",
      "UPDATE_CONTEXT_FIELD",
      "DELETE_CONTEXT_FIELD",
      "CREATE_TAG_TYPE",
      "UPDATE_TAG_TYPE",
      "DELETE_TAG_TYPE",
      "CREATE_STRATEGY",
      "UPDATE_STRATEGY",
      "DELETE_STRATEGY",
      "CREATE_ENVIRONMENT",
      "UPDATE_ENVIRONMENT",
      "DELETE_ENVIRONMENT",
      "UPDATE_APPLICATION",
      "READ_API_TOKEN",
      "CREATE_CLIENT_API_TOKEN",
      "CREATE_FRONTEND_API_TOKEN",
      "UPDATE_CLIENT_API_TOKEN",
      "UPDATE_FRONTEND_API_TOKEN",
      "DELETE_CLIENT_API_TOKEN",
      "DELETE_FRONTEND_API_TOKEN",
    ]),
    displayName: z.enum([
      "ADMIN",
      "CREATE_PROJECT",
      "CREATE_SEGMENT",
      "UPDATE_SEGMENT",
      "DELETE_SEGMENT",
      "CREATE_CONTEXT_FIELD",
      "UPDATE_CONTEXT_FIELD",
      "DELETE_CONTEXT_FIELD",
      "CREATE_TAG_TYPE",
      "UPDATE_TAG_TYPE",
      "DELETE_TAG_TYPE",
      "CREATE_STRATEGY",
      "UPDATE_STRATEGY",
      "DELETE_STRATEGY",
      "CREATE_ENVIRONMENT",
      "UPDATE_ENVIRONMENT",
      "DELETE_ENVIRONMENT",
      "UPDATE_APPLICATION",
      "READ_API_TOKEN",
      "CREATE_CLIENT_API_TOKEN",
      "CREATE_FRONTEND_API_TOKEN",
      "UPDATE_CLIENT_API_TOKEN",
      "UPDATE_FRONTEND_API_TOKEN",
      "DELETE_CLIENT_API_TOKEN",
      "DELETE_FRONTEND_API_TOKEN",
    ]),
    type: z.string(),
  })),
  project: z.array(z.object({
    name: z.enum([
      "CREATE_FEATURE",
      "UPDATE_FEATURE",
      "DELETE_FEATURE",
      "UPDATE_FEATURE_VARIANTS",
      "UPDATE_FEATURE_DEPENDENCY",
      "UPDATE_PROJECT",
      "DELETE_PROJECT",
      "UPDATE_PROJECT_SEGMENT",
      "CREATE_PROJECT_API_TOKEN",
      "READ_PROJECT_API_TOKEN",
      "DELETE_PROJECT_API_TOKEN",
      "PROJECT_USER_ACCESS_READ",
      "PROJECT_USER_ACCESS_WRITE",
    ]),
    displayName: z.enum([
      "CREATE_FEATURE",
      "UPDATE_FEATURE",
      "DELETE_FEATURE",
      "UPDATE_FEATURE_VARIANTS",
      "UPDATE_FEATURE_DEPENDENCY",
      "UPDATE_PROJECT",
      "DELETE_PROJECT",
      "UPDATE_PROJECT_SEGMENT",
      "CREATE_PROJECT_API_TOKEN",
      "READ_PROJECT_API_TOKEN",
      "DELETE_PROJECT_API_TOKEN",
      "PROJECT_USER_ACCESS_READ",
      "PROJECT_USER_ACCESS_WRITE",
    ]),
    type: z.string(),
  })),
  environments: z.array(z.object({
    name: z.string(),
    permissions: z.array(z.object({
      name: z.enum([
        "CREATE_FEATURE_STRATEGY",
        "UPDATE_FEATURE_STRATEGY",
        "DELETE_FEATURE_STRATEGY",
        "UPDATE_FEATURE_ENVIRONMENT",
        "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
        "APPROVE_CHANGE_REQUEST",
        "APPLY_CHANGE_REQUEST",
        "SKIP_CHANGE_REQUEST",
      ]),
      displayName: z.enum([
        "CREATE_FEATURE_STRATEGY",
        "UPDATE_FEATURE_STRATEGY",
        "DELETE_FEATURE_STRATEGY",
        "UPDATE_FEATURE_ENVIRONMENT",
        "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
        "APPROVE_CHANGE_REQUEST",
        "APPLY_CHANGE_REQUEST",
        "SKIP_CHANGE_REQUEST",
      ]),
      type: z.string(),
    })),
  })),
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

/** GET /api/admin/segments */
export const SegmentList = z.object({
  segments: z.array(z.object({
    id: z.number(),
    name: z.string(),
    description: z.string().nullable(),
    project: z.string().nullable(),
    constraints: z.array(z.object({
      contextName: z.string(),
      operator: z.string(),
      caseInsensitive: z.boolean().optional(),
      inverted: z.boolean().optional(),
      values: z.array(z.string()).optional(),
      value: z.string().optional(),
    })),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    usedInFeatures: z.number().nullable().optional(),
    usedInProjects: z.number().nullable().optional(),
  })),
});

/** GET /api/admin/segments/:id/strategies */
export const SegmentStrategies = z.object({
  strategies: z.array(z.object({
    id: z.string(),
    featureName: z.string(),
    projectId: z.string(),
    environment: z.string(),
    strategyName: z.string(),
  })).readonly(),
  changeRequestStrategies: z.array(z.never()),
});

/** POST /api/admin/splash/:id */
export const SplashSeen = z.object({ userId: z.number(), splashId: z.string(), seen: z.boolean() });

/** POST /api/admin/strategies */
export const StrategyDefinitionView = z.object({
  name: z.string(),
  displayName: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  editable: z.boolean(),
  deprecated: z.boolean(),
  parameters: z.array(z.object({
    name: z.string(),
    type: z.string(),
    description: z.string().optional(),
    required: z.boolean().optional(),
  })),
});

/** GET /api/admin/strategies */
export const StrategyDefinitionList = z.object({ version: z.number(), strategies: z.array(StrategyDefinitionView) });

/** POST /api/admin/features/:featureName/tags */
export const FeatureTagView = z.object({ value: z.string(), type: z.string() });

/** PUT /api/admin/features/:featureName/tags */
export const FeatureTagList = z.object({
  version: z.number(),
  tags: z.array(z.object({ value: z.string(), type: z.string(), color: z.string().nullable() })),
});

/** POST /api/admin/tag-types */
export const TagTypeView = z.object({
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
});

/** GET /api/admin/tag-types */
export const TagTypeList = z.object({ version: z.number(), tagTypes: z.array(TagTypeView).readonly() });

/** POST /api/admin/tag-types/validate */
export const TagTypeValidation = z.object({ valid: z.boolean(), tagType: z.object({ name: z.string() }) });

/** GET /api/admin/tag-types/:name */
export const TagTypeAnswer = z.object({ version: z.number(), tagType: TagTypeView });

/** GET /api/admin/ui-config */
export const UiConfig = z.object({
  name: z.string(),
  slogan: z.string(),
  version: z.string(),
  unleashUrl: z.string(),
  baseUriPath: z.string(),
  authenticationType: z.string(),
  disablePasswordAuth: z.boolean(),
  oidcConfiguredThroughEnv: z.boolean(),
  samlConfiguredThroughEnv: z.boolean(),
  emailEnabled: z.boolean(),
  maintenanceMode: z.boolean(),
  frontendApiOrigins: z.array(z.string()),
  flags: z.object({ oidcEnabled: z.boolean() }),
  links: z.array(z.never()),
  versionInfo: z.object({
    current: z.object({ oss: z.string() }),
    latest: z.object({ }),
    isLatest: z.boolean(),
    bunting: z.string(),
  }),
});

/** GET /api/admin/user */
export const CurrentUser = z.object({
  user: User,
  permissions: z.array(z.object({
    permission: z.string(),
    project: z.string().optional(),
    environment: z.string().optional(),
  })),
  feedback: z.array(z.never()),
  splash: z.record(z.string(), z.boolean()),
});

/** GET /api/admin/user/roles */
export const OwnRoles = z.object({
  version: z.number(),
  roles: z.array(z.object({
    id: z.number(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.string(),
  })).readonly(),
});

/** GET /api/admin/user-admin/search */
export const UserSearchAnswer = z.array(User);

/** GET /api/admin/user-admin/admin-count */
export const AdminCounts = z.object({ password: z.number(), noPassword: z.number(), service: z.number() });

/** GET /api/admin/user-admin/inactive */
export const InactiveUsers = z.object({
  version: z.number(),
  inactiveUsers: z.array(z.object({
    id: z.number(),
    name: z.string().nullable(),
    username: z.string().nullable(),
    email: z.string().nullable(),
    seenAt: z.string().nullable(),
    createdAt: z.string(),
  })),
});

/** GET /api/admin/events/:featureName */
export const FeatureEventList = z.object({
  version: z.number(),
  toggleName: z.string(),
  events: z.array(Event),
  totalEvents: z.number(),
});

/** GET /api/admin/search/events */
export const EventSearchAnswer = z.object({ events: z.array(Event), total: z.number() });

/** GET /api/admin/event-creators */
export const EventCreators = z.array(z.object({ id: z.number().nullable(), name: z.string() })).readonly();

/** GET /api/admin/metrics/applications */
export const ApplicationList = z.object({ total: z.number(), applications: z.array(Application) });

/** GET /api/admin/metrics/applications/:appName */
export const ApplicationView = Application;

/** GET /api/admin/metrics/instances/:appName/environment/:environment */
export const ApplicationInstances = z.object({
  instances: z.array(z.object({ sdkVersion: z.string().nullable(), instanceId: z.string(), lastSeen: z.string() })),
});

/** GET /api/admin/metrics/applications/:appName/overview */
export const ApplicationOverview = z.object({
  projects: z.array(z.string()).readonly(),
  featureCount: z.number(),
  environments: z.array(z.object({
    issues: z.object({ missingFeatures: z.array(z.string()), outdatedSdks: z.array(z.string()) }),
    name: z.string(),
    instanceCount: z.number(),
    sdks: z.array(z.string()),
    frontendSdks: z.array(z.string()),
    backendSdks: z.array(z.string()),
    lastSeen: z.string().nullable(),
  })),
  issues: z.object({ missingStrategies: z.array(z.never()) }),
});

/** GET /api/admin/metrics/sdks/outdated */
export const OutdatedSdks = z.object({
  sdks: z.array(z.object({ sdkVersion: z.string(), applications: z.array(z.string()) })),
});

/** GET /api/admin/client-metrics/features/:name */
export const FeatureMetrics = z.object({
  version: z.number(),
  maturity: z.string(),
  featureName: z.string(),
  lastHourUsage: z.array(z.object({
    featureName: z.string(),
    environment: z.string(),
    timestamp: z.string(),
    yes: z.number(),
    no: z.number(),
  })),
  totalUsage: z.array(z.object({ environment: z.string(), yes: z.number(), no: z.number() })),
  seenApplications: z.array(z.string()),
  data: z.array(z.object({
    featureName: z.string(),
    appName: z.string(),
    environment: z.string(),
    timestamp: z.string(),
    yes: z.number(),
    no: z.number(),
    variants: z.record(z.string(), z.number()),
  })).readonly(),
});

/** GET /api/admin/client-metrics/features/:name/raw */
export const FeatureMetricsRaw = z.object({
  version: z.number(),
  maturity: z.string(),
  data: z.array(z.object({
    featureName: z.string(),
    appName: z.string(),
    environment: z.string(),
    timestamp: z.string(),
    yes: z.number(),
    no: z.number(),
    variants: z.record(z.string(), z.number()),
  })).readonly(),
});

/** GET /api/admin/projects/:projectId/dora */
export const ProjectDora = z.object({
  projectAverage: z.number(),
  features: z.array(z.object({ name: z.string(), timeToProduction: z.number() })),
});

/** GET /api/admin/projects/:projectId/insights */
export const ProjectInsights = z.object({
  stats: z.object({
    avgTimeToProdCurrentWindow: z.number(),
    createdCurrentWindow: z.number(),
    createdPastWindow: z.number(),
    archivedCurrentWindow: z.number(),
    archivedPastWindow: z.number(),
    projectActivityCurrentWindow: z.number(),
    projectActivityPastWindow: z.number(),
    projectMembersAddedCurrentWindow: z.number(),
  }),
  health: z.object({
    activeCount: z.number(),
    potentiallyStaleCount: z.number(),
    staleCount: z.number(),
    rating: z.number(),
  }),
  technicalDebt: z.object({
    activeCount: z.number(),
    potentiallyStaleCount: z.number(),
    staleCount: z.number(),
    rating: z.number(),
  }),
  leadTime: ProjectDora,
  featureTypeCounts: z.array(z.object({ type: z.string(), count: z.number() })),
  members: z.object({ currentMembers: z.number(), change: z.number() }),
});

/** GET /api/admin/projects/:projectId/status */
export const ProjectStatusAnswer = z.object({
  activityCountByDate: z.array(z.object({ date: z.string(), count: z.number() })),
  resources: z.object({ members: z.number(), apiTokens: z.number(), segments: z.number() }),
  health: z.object({ current: z.number() }),
  technicalDebt: z.object({ current: z.number() }),
  lifecycleSummary: z.object({
    archived: z.object({ currentFlags: z.number(), last30Days: z.number() }),
    initial: z.object({ averageDays: z.number().nullable(), currentFlags: z.number() }),
    live: z.object({ averageDays: z.number().nullable(), currentFlags: z.number() }),
    completed: z.object({ averageDays: z.number().nullable(), currentFlags: z.number() }),
    preLive: z.object({ averageDays: z.number().nullable(), currentFlags: z.number() }),
  }),
  staleFlags: z.object({ total: z.number() }),
});

/** GET /api/admin/projects/:projectId/applications */
export const ProjectApplicationList = z.object({
  total: z.number(),
  applications: z.array(z.object({
    name: z.string(),
    environments: z.array(z.string()),
    instances: z.array(z.string()),
    sdks: z.array(z.object({ name: z.string(), versions: z.array(z.string()) })),
  })),
});

/** GET /api/admin/metrics/unknown-flags */
export const UnknownFlags = z.object({
  unknownFlags: z.array(z.object({
    reports: z.array(z.object({
      appName: z.string(),
      environments: z.array(z.object({ environment: z.string(), seenAt: z.string() })),
    })),
    name: z.string(),
    lastSeenAt: z.string(),
    lastEventAt: z.null(),
  })),
});

/** GET /api/admin/insights/lifecycle */
export const LifecycleTrends = z.object({
  lifecycleTrends: z.object({
    develop: z.object({
      totalFlags: z.number(),
      averageDays: z.number(),
      categories: z.object({
        release: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
        experimental: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
        permanent: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
      }),
    }),
    production: z.object({
      totalFlags: z.number(),
      averageDays: z.number(),
      categories: z.object({
        release: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
        experimental: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
        permanent: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
      }),
    }),
    cleanup: z.object({
      totalFlags: z.number(),
      averageDays: z.number(),
      categories: z.object({
        release: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
        experimental: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
        permanent: z.object({ flagsOlderThanWeek: z.number(), newFlagsThisWeek: z.number() }),
      }),
    }),
  }),
});

/** POST base */
export const ActionSetView = z.object({
  id: z.number(),
  project: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  actorId: z.number(),
  match: z.object({
    source: z.string(),
    sourceId: z.number(),
    payload: z.record(z.string(), z.object({
      operator: z.enum([
        "NOT_IN",
        "IN",
        "STR_ENDS_WITH",
        "STR_STARTS_WITH",
        "STR_CONTAINS",
        "NUM_EQ",
        "NUM_GT",
        "NUM_GTE",
        "NUM_LT",
        "NUM_LTE",
        "DATE_AFTER",
        "DATE_BEFORE",
        "SEMVER_EQ",
        "SEMVER_GT",
        "SEMVER_LT",
        "SEMVER_GTE",
        "SEMVER_LTE",
        "REGEX",
        "IN_CIDR",
      ]),
      value: z.string().optional(),
      values: z.array(z.string()).optional(),
      inverted: z.boolean().optional(),
      caseInsensitive: z.boolean().optional(),
    })).optional(),
  }),
  actions: z.array(z.object({
    action: z.enum(["ENABLE_FEATURE", "DISABLE_FEATURE"]),
    executionParams: z.object({ project: z.string(), environment: z.string(), featureName: z.string() }),
    sortOrder: z.number().optional(),
  })),
  createdAt: z.string(),
  createdByUserId: z.number().nullable(),
});

/** GET base */
export const ActionSetList = z.object({ actions: z.array(ActionSetView) });

/** GET ${base}/:id/events */
export const ActionSetEvents = z.object({
  actionSetEvents: z.array(z.object({
    id: z.number(),
    actionSetId: z.number(),
    signalId: z.number(),
    state: z.string(),
    actions: z.array(z.unknown()),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })).readonly(),
});

/** GET /api/admin/signal-endpoints/:id */
export const SignalEndpointDetail = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  createdAt: z.string(),
  createdByUserId: z.number().nullable(),
  tokens: z.array(z.object({
    id: z.number(),
    name: z.string(),
    signalEndpointId: z.number(),
    createdAt: z.string(),
    createdByUserId: z.number().nullable(),
  })),
});

/** GET /api/admin/signal-endpoints */
export const SignalEndpointList = z.object({ signalEndpoints: z.array(SignalEndpointDetail) });

/** POST /api/admin/signal-endpoints */
export const SignalEndpointView = z.object({
  tokens: z.array(z.object({
    id: z.number(),
    name: z.string(),
    signalEndpointId: z.number(),
    createdAt: z.string(),
    createdByUserId: z.number().nullable(),
  })),
  description: z.string().nullable(),
  enabled: z.boolean(),
  name: z.string(),
  id: z.number(),
  createdAt: z.string(),
  createdByUserId: z.number().nullable(),
});

/** GET /api/admin/signal-endpoints/:id/tokens */
export const SignalEndpointTokenList = z.object({
  signalEndpointTokens: z.array(z.object({
    id: z.number(),
    name: z.string(),
    signalEndpointId: z.number(),
    createdAt: z.string(),
    createdByUserId: z.number().nullable(),
  })),
});

/** POST /api/admin/signal-endpoints/:id/tokens */
export const CreatedSignalEndpointToken = z.object({
  token: z.string(),
  id: z.number(),
  name: z.string(),
  signalEndpointId: z.number(),
  createdAt: z.string(),
  createdByUserId: z.number().nullable(),
});

/** GET /api/admin/signal-endpoints/:id/signals */
export const EndpointSignals = z.object({
  signalEndpointSignals: z.array(z.object({
    id: z.number(),
    source: z.string(),
    sourceId: z.number(),
    tokenName: z.string().nullable(),
    payload: z.unknown(),
    createdAt: z.string(),
  })).readonly(),
});

/** GET /api/admin/signals */
export const SignalList = z.object({
  signals: z.array(z.object({
    id: z.number(),
    source: z.string(),
    sourceId: z.number(),
    tokenName: z.string().nullable(),
    payload: z.unknown(),
    createdAt: z.string(),
  })).readonly(),
});
