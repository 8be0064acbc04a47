/**
 * The API document as OpenAPI 3.0.3, the version Unleash publishes and its document checks read (openapi-enforcer
 * knows no 3.1). The routes' zod schemas become JSON Schema 2020-12, which 3.1 takes as it is; 3.0 has its own
 * dialect, so each schema is rewritten: `null` among the types becomes `nullable`, `const` a one-value `enum`, a
 * numeric `exclusiveMinimum` a `minimum` with the flag, `examples` one `example`, a tuple an array of its members'
 * types; what 3.0 has no word for (`propertyNames`) is left out. What it describes is unchanged.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords that hold one schema, and those that hold a list of them or a map of them. */
const ONE = ['items', 'not', 'additionalProperties'];
const LIST = ['allOf', 'anyOf', 'oneOf'];
const MAP = ['properties'];
/** 2020-12 keywords 3.0 does not know: what they add is a constraint a 3.0 reader cannot apply anyway. */
const UNKNOWN_TO_30 = new Set([
  'propertyNames',
  // zod's readonly() (a TypeScript readonly array): 3.0 means something else by it and allows it on properties only.
  'readOnly',
  '$schema',
  '$id',
  'contentEncoding',
  'contentMediaType',
  'unevaluatedProperties',
  'dependentRequired',
  'dependentSchemas',
]);

/** One schema, rewritten for 3.0. */
export function schemaFor30(input: Json): Json {
  if (!isObject(input)) return input;
  const schema: JsonObject = {};
  for (const [key, value] of Object.entries(input)) {
    if (UNKNOWN_TO_30.has(key)) continue;
    if (ONE.includes(key) && isObject(value)) schema[key] = schemaFor30(value);
    else if (LIST.includes(key) && Array.isArray(value)) schema[key] = value.map(schemaFor30);
    else if (MAP.includes(key) && isObject(value))
      schema[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, schemaFor30(member)]));
    else schema[key] = value;
  }
  if ('const' in schema) {
    schema.enum = [schema.const!];
    delete schema.const;
  }
  if (Array.isArray(schema.examples)) {
    if (schema.examples.length > 0 && !('example' in schema)) schema.example = schema.examples[0]!;
    delete schema.examples;
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[exclusive] === 'number') {
      schema[bound] = schema[exclusive];
      schema[exclusive] = true;
    }
  }
  if (Array.isArray(schema.prefixItems)) {
    const members = schema.prefixItems.map(schemaFor30);
    delete schema.prefixItems;
    schema.items = members.length === 1 ? members[0]! : { anyOf: members };
    schema.minItems ??= members.length;
    schema.maxItems ??= members.length;
  }
  return nullableFor30(schema);
}

/** `type: [t, 'null']`, `type: 'null'` and `anyOf: [s, {type: 'null'}]` as 3.0 says them. */
function nullableFor30(schema: JsonObject): JsonObject {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    const nullable = types.length < schema.type.length;
    const { type: _types, ...rest } = schema;
    const typed: JsonObject =
      types.length === 1 ? { ...rest, type: types[0]! } : { ...rest, anyOf: types.map((type) => ({ type })) };
    return nullable ? { ...typed, nullable: true } : typed;
  }
  // Only null (an answer without a body is declared so): 3.0 cannot name the type, so a nullable with nothing else.
  if (schema.type === 'null') {
    const { type: _null, ...rest } = schema;
    return { ...rest, nullable: true, enum: [null] };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key];
    const isNull = (member: Json) =>
      isObject(member) && member.nullable === true && Array.isArray(member.enum) && member.enum[0] === null;
    if (!Array.isArray(members) || !members.some(isNull)) continue;
    const kept = members.filter((member) => !isNull(member));
    const { [key]: _members, ...rest } = schema;
    if (kept.length === 1 && isObject(kept[0])) {
      const only = kept[0];
      // Beside a $ref 3.0 ignores every other keyword, so the reference goes in an allOf.
      return '$ref' in only ? { ...rest, allOf: [only], nullable: true } : { ...rest, ...only, nullable: true };
    }
    return { ...rest, [key]: kept, nullable: true };
  }
  return schema;
}

const mapValues = (value: Json | undefined, rewrite: (member: Json) => Json): Json | undefined =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([name, member]) => [name, rewrite(member)])) : value;

/** A parameter, request body or response with its schemas rewritten. */
function withContentFor30(holder: Json): Json {
  if (!isObject(holder)) return holder;
  const rewritten: JsonObject = { ...holder };
  if (isObject(holder.schema)) rewritten.schema = schemaFor30(holder.schema);
  if (isObject(holder.content))
    rewritten.content = mapValues(holder.content, (media) =>
      isObject(media) && isObject(media.schema) ? { ...media, schema: schemaFor30(media.schema) } : media,
    )!;
  return rewritten;
}

/** The whole document, rewritten for 3.0.3. */
export function openApi30<T extends object>(document: T): T {
  const source = structuredClone(document) as unknown as JsonObject;
  const paths = mapValues(
    source.paths,
    (item) =>
      mapValues(item, (operation): Json => {
        if (!isObject(operation)) return operation;
        const rewritten: JsonObject = { ...operation };
        if (Array.isArray(operation.parameters)) rewritten.parameters = operation.parameters.map(withContentFor30);
        if (operation.requestBody) rewritten.requestBody = withContentFor30(operation.requestBody);
        if (isObject(operation.responses)) rewritten.responses = mapValues(operation.responses, withContentFor30)!;
        return rewritten;
      }) ?? null,
  );
  const components = isObject(source.components)
    ? { ...source.components, schemas: mapValues(source.components.schemas, schemaFor30) ?? {} }
    : source.components;
  const { jsonSchemaDialect: _dialect, webhooks: _webhooks, ...rest } = source;
  return { ...rest, openapi: '3.0.3', paths: paths ?? {}, ...(components ? { components } : {}) } as unknown as T;
}
