import { z } from 'zod';

/** SCIM 2.0 (RFC 7643 resources, RFC 7644 protocol) as /scim/v2 speaks it. */
export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const ScimMeta = z.object({
  resourceType: z.string(),
  created: z.string().optional(),
  lastModified: z.string().optional(),
  location: z.string().optional(),
});

const Text = z.string().max(255);
// Providers send booleans as strings too (Entra: "True"/"False").
export const ScimBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE'])])
  .transform((value) => (typeof value === 'boolean' ? value : value.toLowerCase() === 'true'));

/** A user as a provider sends it (unknown attributes and extensions are kept out, not refused). */
export const ScimUserInput = z.object({
  schemas: z.array(z.string()).optional(),
  externalId: Text.optional(),
  userName: z.string().trim().min(1).max(255),
  name: z
    .object({ formatted: Text.optional(), givenName: Text.optional(), familyName: Text.optional() })
    .partial()
    .optional(),
  displayName: Text.optional(),
  emails: z
    .array(
      z.object({ value: z.string().max(255), primary: ScimBoolean.optional(), type: z.string().max(50).optional() }),
    )
    .max(20)
    .optional(),
  active: ScimBoolean.optional(),
});
export type ScimUserInput = z.infer<typeof ScimUserInput>;

export const ScimUser = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  externalId: z.string().optional(),
  userName: z.string(),
  name: z.object({ formatted: z.string().optional() }).optional(),
  displayName: z.string().optional(),
  emails: z.array(z.object({ value: z.string(), primary: z.boolean(), type: z.string() })).optional(),
  active: z.boolean(),
  meta: ScimMeta,
});
export type ScimUser = z.infer<typeof ScimUser>;

// A member's $ref (optional in SCIM) is neither read nor sent: a property of that name reads as a JSON Schema reference.
export const ScimMember = z.object({ value: z.string().max(255), display: z.string().max(255).optional() });

export const ScimGroupInput = z.object({
  schemas: z.array(z.string()).optional(),
  externalId: Text.optional(),
  displayName: z.string().trim().min(1).max(100),
  members: z.array(ScimMember).max(10_000).optional(),
});
export type ScimGroupInput = z.infer<typeof ScimGroupInput>;

export const ScimGroup = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  externalId: z.string().optional(),
  displayName: z.string(),
  members: z.array(z.object({ value: z.string(), display: z.string().optional() })).optional(),
  meta: ScimMeta,
});
export type ScimGroup = z.infer<typeof ScimGroup>;

export const ScimListQuery = z.object({
  filter: z.string().max(1000).optional(),
  startIndex: z.coerce.number().int().min(1).max(1_000_000).optional(),
  count: z.coerce.number().int().min(0).max(1000).optional(),
  excludedAttributes: z.string().max(200).optional(),
  attributes: z.string().max(200).optional(),
});

export const scimList = <T extends z.ZodType>(resource: T) =>
  z.object({
    schemas: z.array(z.string()),
    totalResults: z.number().int(),
    startIndex: z.number().int(),
    itemsPerPage: z.number().int(),
    Resources: z.array(resource),
  });

export const ScimPatchRequest = z.object({
  schemas: z.array(z.string()).optional(),
  Operations: z
    .array(
      z.object({
        // Providers write the operation in any case (Entra: "Replace").
        op: z
          .string()
          .transform((op) => op.toLowerCase())
          .pipe(z.enum(['add', 'replace', 'remove'])),
        path: z.string().max(500).optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(1000),
});
export type ScimPatchRequest = z.infer<typeof ScimPatchRequest>;

/** RFC 7644 §3.12: the status as a string, scimType for the kinds of bad request it names. */
export const ScimError = z.object({
  schemas: z.array(z.string()),
  status: z.string(),
  scimType: z.string().optional(),
  detail: z.string(),
});

/** A static description (ServiceProviderConfig, ResourceTypes, Schemas): documented, not constrained. */
export const ScimDescription = z.record(z.string(), z.unknown());

/** The console's SCIM settings: whether it is on and whether a token was made (the token is shown once). */
export const ScimSettings = z.object({ enabled: z.boolean(), hasToken: z.boolean() });
export const UpdateScimSettings = z.object({ enabled: z.boolean() });
export const ScimToken = z.object({ token: z.string() });
