import { SCIM_SCHEMAS } from '@bunting/contracts';

// What this service provider supports (RFC 7643 §5-7), for providers that ask before they send.
const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMAS.serviceProviderConfig],
    documentationUri: new URL('/docs', baseUrl).toString(),
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 1000 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: "The SCIM token made in Bunting's sign-in settings",
        primary: true,
      },
    ],
    meta: {
      resourceType: 'ServiceProviderConfig',
      location: new URL('/scim/v2/ServiceProviderConfig', baseUrl).toString(),
    },
  };
}

export function resourceTypes(baseUrl: string) {
  const type = (id: 'User' | 'Group', schema: string) => ({
    schemas: [SCIM_SCHEMAS.resourceType],
    id,
    name: id,
    endpoint: `/${id}s`,
    schema,
    meta: { resourceType: 'ResourceType', location: new URL(`/scim/v2/ResourceTypes/${id}`, baseUrl).toString() },
  });
  return [type('User', SCIM_SCHEMAS.user), type('Group', SCIM_SCHEMAS.group)];
}

export function schemas(baseUrl: string) {
  const schema = (id: string, name: string, attributes: unknown[]) => ({
    schemas: [SCIM_SCHEMAS.schema],
    id,
    name,
    attributes,
    meta: { resourceType: 'Schema', location: new URL(`/scim/v2/Schemas/${id}`, baseUrl).toString() },
  });
  return [
    schema(SCIM_SCHEMAS.user, 'User', [
      attribute('userName', 'string', { required: true, uniqueness: 'server' }),
      attribute('externalId', 'string', { caseExact: true }),
      {
        ...attribute('name', 'complex'),
        subAttributes: [
          attribute('formatted', 'string'),
          attribute('givenName', 'string'),
          attribute('familyName', 'string'),
        ],
      },
      attribute('displayName', 'string'),
      {
        ...attribute('emails', 'complex', { multiValued: true }),
        subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')],
      },
      attribute('active', 'boolean'),
    ]),
    schema(SCIM_SCHEMAS.group, 'Group', [
      attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
      attribute('externalId', 'string', { caseExact: true }),
      {
        ...attribute('members', 'complex', { multiValued: true }),
        subAttributes: [
          attribute('value', 'string', { mutability: 'immutable' }),
          attribute('display', 'string', { mutability: 'readOnly' }),
        ],
      },
    ]),
  ];
}
