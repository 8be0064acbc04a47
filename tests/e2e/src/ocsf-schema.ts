/**
 * OCSF 1.3.0's Entity Management class (3004) as JSON Schema, written from the schema's published class and object
 * definitions: the base event's required attributes, the class's own (entity required, actor recommended and here
 * required, since every Bunting event has one), the enumerations' values, and no attribute the class does not define
 * (Bunting's own fields go under `unmapped`, as OCSF says).
 */
const product = {
  type: 'object',
  required: ['name', 'vendor_name'],
  properties: {
    name: { type: 'string' },
    vendor_name: { type: 'string' },
    version: { type: 'string' },
    uid: { type: 'string' },
  },
  additionalProperties: false,
};

const metadata = {
  type: 'object',
  required: ['version', 'product'],
  properties: {
    version: { type: 'string', pattern: '^1\\.\\d+\\.\\d+$' },
    product,
    uid: { type: 'string' },
    event_code: { type: 'string' },
    original_time: { type: 'string' },
    log_provider: { type: 'string' },
    logged_time: { type: 'integer' },
  },
  additionalProperties: false,
};

const user = {
  type: 'object',
  anyOf: [{ required: ['name'] }, { required: ['uid'] }],
  properties: { name: { type: 'string' }, uid: { type: 'string' }, email_addr: { type: 'string' } },
  additionalProperties: false,
};

const actor = {
  type: 'object',
  anyOf: [{ required: ['user'] }, { required: ['app_name'] }],
  properties: { user, app_name: { type: 'string' } },
  additionalProperties: false,
};

/** OCSF's Managed Entity object: at least one of name, uid or type. */
const entity = {
  type: 'object',
  anyOf: [{ required: ['name'] }, { required: ['uid'] }],
  properties: { name: { type: 'string' }, uid: { type: 'string' }, type: { type: 'string' }, data: { type: 'object' } },
  additionalProperties: false,
};

export const ocsfEntityManagementSchema = {
  type: 'object',
  required: [
    'activity_id',
    'category_uid',
    'class_uid',
    'metadata',
    'severity_id',
    'time',
    'type_uid',
    'entity',
    'actor',
  ],
  properties: {
    activity_id: { enum: [0, 1, 2, 3, 4, 5, 6, 7, 8, 99] },
    activity_name: {
      enum: ['Unknown', 'Create', 'Read', 'Update', 'Delete', 'Move', 'Enroll', 'Unenroll', 'Enable', 'Other'],
    },
    category_uid: { const: 3 },
    category_name: { const: 'Identity & Access Management' },
    class_uid: { const: 3004 },
    class_name: { const: 'Entity Management' },
    type_uid: { type: 'integer', minimum: 300400, maximum: 300499 },
    type_name: { type: 'string' },
    severity_id: { enum: [0, 1, 2, 3, 4, 5, 6, 99] },
    severity: { type: 'string' },
    status_id: { enum: [0, 1, 2, 99] },
    status: { type: 'string' },
    time: { type: 'integer', minimum: 0 },
    message: { type: 'string' },
    metadata,
    actor,
    entity,
    unmapped: { type: 'object' },
  },
  additionalProperties: false,
} as const;

const baseProperties = {
  category_uid: { const: 3 },
  category_name: { const: 'Identity & Access Management' },
  type_name: { type: 'string' },
  severity_id: { enum: [0, 1, 2, 3, 4, 5, 6, 99] },
  severity: { type: 'string' },
  status_id: { enum: [0, 1, 2, 99] },
  status: { type: 'string' },
  status_detail: { type: 'string' },
  time: { type: 'integer', minimum: 0 },
  message: { type: 'string' },
  metadata,
  unmapped: { type: 'object' },
};

const endpoint = { type: 'object', properties: { ip: { type: 'string' } }, additionalProperties: false };
const httpRequest = {
  type: 'object',
  properties: { user_agent: { type: 'string' } },
  additionalProperties: false,
};

/** OCSF 1.3.0's Authentication class (3002): the user is required; logon, logoff, tickets. */
export const ocsfAuthenticationSchema = {
  type: 'object',
  required: ['activity_id', 'category_uid', 'class_uid', 'metadata', 'severity_id', 'time', 'type_uid', 'user'],
  properties: {
    ...baseProperties,
    class_uid: { const: 3002 },
    class_name: { const: 'Authentication' },
    activity_id: { enum: [0, 1, 2, 3, 4, 5, 6, 7, 99] },
    activity_name: {
      enum: [
        'Unknown',
        'Logon',
        'Logoff',
        'Authentication Ticket',
        'Service Ticket Request',
        'Service Ticket Renew',
        'Preauth',
        'Other',
      ],
    },
    type_uid: { type: 'integer', minimum: 300200, maximum: 300299 },
    user,
    auth_protocol: { type: 'string' },
    src_endpoint: endpoint,
    http_request: httpRequest,
  },
  additionalProperties: false,
} as const;

/** OCSF 1.3.0's Account Change class (3001): the user is required; Disable is activity 5. */
export const ocsfAccountChangeSchema = {
  type: 'object',
  required: ['activity_id', 'category_uid', 'class_uid', 'metadata', 'severity_id', 'time', 'type_uid', 'user'],
  properties: {
    ...baseProperties,
    class_uid: { const: 3001 },
    class_name: { const: 'Account Change' },
    activity_id: { enum: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 99] },
    activity_name: { type: 'string' },
    type_uid: { type: 'integer', minimum: 300100, maximum: 300199 },
    user,
    src_endpoint: endpoint,
    http_request: httpRequest,
  },
  additionalProperties: false,
} as const;
