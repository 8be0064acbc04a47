/**
 * A small valid value for a JSON schema of the API document: what a test sends to an operation it knows only from
 * the document. Takes the first choice of a union, the required fields of an object, the fewest items an array
 * allows, and a value of each string format; it does not try to satisfy patterns.
 */
type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  format?: string;
  examples?: unknown[];
  default?: unknown;
};

export function sampleOf(
  schema: JsonSchema | undefined,
  components: Record<string, JsonSchema> = {},
  depth = 0,
): unknown {
  if (!schema || depth > 12) return undefined;
  if (schema.$ref) return sampleOf(components[schema.$ref.split('/').pop()!], components, depth + 1);
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.length)
    return sampleOf(choice.find((option) => option.type !== 'null') ?? choice[0], components, depth + 1);
  if (schema.allOf?.length)
    return Object.assign({}, ...schema.allOf.map((part) => sampleOf(part, components, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? [])
        value[name] = sampleOf(schema.properties?.[name], components, depth + 1);
      return value;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items, components, depth + 1));
    case 'string':
      return stringSample(schema);
    case 'integer':
    case 'number':
      return Math.max(
        1,
        Math.ceil(schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1)),
      );
    case 'boolean':
      return true;
    default:
      return schema.default ?? null;
  }
}

function stringSample(schema: JsonSchema): string {
  switch (schema.format) {
    case 'date-time':
      return new Date(Date.now() + 86_400_000).toISOString();
    case 'date':
      return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    case 'email':
      return 'sample@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/sample';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000001';
    default:
      return 'sample-value'.padEnd(schema.minLength ?? 0, 'x');
  }
}
