// The answers OpenFeature CLI's manifest API promises (open-feature/cli api/v0/sync.yaml, 2026), written out here as
// JSON Schema so that every answer Bunting gives can be checked against the contract rather than against itself.
// `float` is added to the type enum: the CLI's manifest file has it, the v0 sync document does not yet; the tests
// check that only a flag with fractional number payloads is typed float.

const defaultValue = { oneOf: [{ type: 'boolean' }, { type: 'string' }, { type: 'integer' }, { type: 'object' }] };
const floatDefault = { oneOf: [...defaultValue.oneOf, { type: 'number', not: { type: 'integer' } }] };

const manifestFlag = (allowFloat: boolean) => ({
  type: 'object',
  required: ['key', 'type', 'defaultValue'],
  properties: {
    key: { type: 'string' },
    name: { type: 'string' },
    type: { enum: ['boolean', 'string', 'integer', 'object', ...(allowFloat ? ['float'] : [])] },
    description: { type: ['string', 'null'] },
    defaultValue: allowFloat ? floatDefault : defaultValue,
  },
});

export const syncV0 = (allowFloat = false) => ({
  envelope: {
    type: 'object',
    required: ['flags'],
    properties: { flags: { type: 'array', items: manifestFlag(allowFloat) } },
  },
  flagResponse: {
    type: 'object',
    required: ['flag', 'updatedAt'],
    properties: { flag: manifestFlag(allowFloat), updatedAt: { type: 'string', format: 'date-time' } },
  },
  archive: {
    type: 'object',
    required: ['message', 'archivedAt'],
    properties: { message: { type: 'string' }, archivedAt: { type: ['string', 'null'], format: 'date-time' } },
  },
  error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['message', 'status'],
        properties: {
          message: { type: 'string' },
          status: { type: 'integer' },
          details: {
            type: 'array',
            items: {
              type: 'object',
              properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
  },
});
