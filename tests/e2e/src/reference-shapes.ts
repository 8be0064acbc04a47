import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Compares an answer with the response schema Unleash 8.2 documents for the same operation: every property the
 * reference lists must be sent, with a value of the listed type (null only where it is nullable). Extra fields
 * are not reported. Paths of problems read like `features[0].environments[1].yes: missing`.
 */
type Schema = {
  $ref?: string;
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  enum?: unknown[];
  deprecated?: boolean;
};

type Document = {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
};

/**
 * Unleash's published OpenAPI document is not ours to copy into the repository. It is read from the folder
 * UNLEASH_REFERENCE_DIR names, else from `shared/reference` beside the checkout; without it the comparison cannot
 * run and says so.
 */
function findReference(): string | undefined {
  const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const folder = process.env.UNLEASH_REFERENCE_DIR ?? join(repositoryRoot, '..', 'shared', 'reference');
  const candidate = join(folder, 'unleash-oss-8.2-openapi.json');
  return existsSync(candidate) ? candidate : undefined;
}

export const referencePath = findReference();
const document: Document = referencePath
  ? JSON.parse(readFileSync(referencePath, 'utf8'))
  : { paths: {}, components: { schemas: {} } };
export const reference = document;

function resolve(schema: Schema): Schema {
  let current = schema;
  while (current.$ref) current = reference.components.schemas[current.$ref.replace('#/components/schemas/', '')] ?? {};
  return current;
}

/** The documented schema of an operation's answer with the given status, or undefined. */
export function responseSchema(path: string, method: string, status: number): Schema | undefined {
  return reference.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)]?.content?.['application/json']
    ?.schema;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

export type ShapeProblem = { path: string; problem: string };

/**
 * Required fields must be there; an optional one only when `wanted` names it (fields Unleash sends that clients
 * read, such as a flag environment's `yes`). Any field that is there must have its documented type.
 */
export function compareWithReference(
  schema: Schema,
  value: unknown,
  path = '',
  problems: ShapeProblem[] = [],
  wanted: (path: string) => boolean = () => false,
): ShapeProblem[] {
  const resolved = resolve(schema);
  if (value === null) {
    const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
    if (!resolved.nullable && !types.includes('null') && resolved.type !== undefined)
      problems.push({ path, problem: 'null where the reference does not allow it' });
    return problems;
  }
  if (resolved.allOf) {
    for (const part of resolved.allOf) compareWithReference(part, value, path, problems, wanted);
    return problems;
  }
  const alternatives = resolved.oneOf ?? resolved.anyOf;
  if (alternatives) {
    // The closest alternative decides: the one with the fewest problems.
    const tries = alternatives.map((alternative) => compareWithReference(alternative, value, path, [], wanted));
    const best = tries.reduce((a, b) => (b.length < a.length ? b : a), tries[0] ?? []);
    problems.push(...best);
    return problems;
  }
  const types = (Array.isArray(resolved.type) ? resolved.type : resolved.type ? [resolved.type] : []).filter(
    (type) => type !== 'null',
  );
  if (types.length > 0 && !types.some((type) => typeMatches(type, value))) {
    problems.push({ path, problem: `${JSON.stringify(value)?.slice(0, 40)} is not ${types.join(' or ')}` });
    return problems;
  }
  if (Array.isArray(value) && resolved.items) {
    value.forEach((item, index) => compareWithReference(resolved.items!, item, `${path}[${index}]`, problems, wanted));
  } else if (value && typeof value === 'object' && resolved.properties) {
    for (const [name, property] of Object.entries(resolved.properties)) {
      const fieldPath = path ? `${path}.${name}` : name;
      if (!(name in value) || (value as Record<string, unknown>)[name] === undefined) {
        if (resolved.required?.includes(name) || wanted(fieldPath.replace(/\[\d+\]/g, '[]')))
          problems.push({ path: fieldPath, problem: 'missing' });
        continue;
      }
      compareWithReference(property, (value as Record<string, unknown>)[name], fieldPath, problems, wanted);
    }
  }
  return problems;
}

/** Problems with their array indexes folded (`features[].yes`), each once. */
export function foldProblems(problems: readonly ShapeProblem[]): string[] {
  return [
    ...new Set(
      problems.map(
        ({ path, problem }) =>
          `${path.replace(/\[\d+\]/g, '[]')}: ${problem.startsWith('"') || problem.startsWith('{') ? problem.replace(/^.* is not/, 'is not') : problem}`,
      ),
    ),
  ].sort();
}
