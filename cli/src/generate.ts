/** A flag as the OpenFeature manifest API gives it. */
export interface ManifestEntry {
  readonly key: string;
  readonly name?: string;
  readonly type: 'boolean' | 'string' | 'integer' | 'float' | 'object';
  readonly description?: string | null;
  readonly defaultValue: unknown;
}

const RESERVED = new Set([
  'default',
  'class',
  'function',
  'const',
  'let',
  'var',
  'new',
  'delete',
  'enum',
  'export',
  'import',
  'return',
  'this',
  'void',
  'with',
  'yield',
  'in',
  'of',
  'if',
  'do',
  'for',
  'while',
  'switch',
  'case',
  'try',
  'catch',
  'finally',
  'throw',
  'typeof',
  'instanceof',
  'super',
  'extends',
  'null',
  'true',
  'false',
]);

/** A flag key as a TypeScript identifier: `new-checkout` is `newCheckout`; collisions get a number. */
function identifiers(keys: readonly string[]): Map<string, string> {
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const key of keys) {
    let name = key
      .replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ? next.toUpperCase() : ''))
      .replace(/^[A-Z]/, (first) => first.toLowerCase());
    if (name === '' || /^\d/.test(name) || RESERVED.has(name))
      name = `flag${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    let unique = name;
    for (let n = 2; taken.has(unique); n++) unique = `${name}${n}`;
    taken.add(unique);
    out.set(key, unique);
  }
  return out;
}

const METHOD = {
  boolean: 'getBooleanValue',
  string: 'getStringValue',
  integer: 'getNumberValue',
  float: 'getNumberValue',
  object: 'getObjectValue',
} as const;
const TYPE = { boolean: 'boolean', string: 'string', integer: 'number', float: 'number', object: 'JsonValue' } as const;

function comment(text: string): string {
  return text.replaceAll('*/', '*\\/');
}

/**
 * Typed accessors over an OpenFeature client: one function per flag with its key and default, so a typo or a wrong
 * type is a compile error. `server` takes an evaluation context and answers a promise; `web` answers at once.
 */
export function typescriptAccessors(
  flags: readonly ManifestEntry[],
  options: { sdk: 'server' | 'web'; source: string },
): string {
  const names = identifiers(flags.map((flag) => flag.key));
  const sdk = options.sdk === 'server' ? '@openfeature/server-sdk' : '@openfeature/web-sdk';
  const lines = [
    `// Written by \`bunting generate\` from ${options.source}. Do not edit: run it again when flags change.`,
    `import type { Client, ${options.sdk === 'server' ? 'EvaluationContext, ' : ''}JsonValue } from '${sdk}';`,
    '',
    `export const flagKeys = ${JSON.stringify(
      flags.map((flag) => flag.key),
      null,
      2,
    ).replaceAll('"', "'")} as const;`,
    'export type FlagKey = (typeof flagKeys)[number];',
    '',
  ];
  for (const flag of flags) {
    const name = names.get(flag.key)!;
    const fallback = JSON.stringify(flag.defaultValue);
    const about = [flag.name && flag.name !== flag.key ? flag.name : null, flag.description ?? null]
      .filter(Boolean)
      .join(': ');
    lines.push(`/** ${comment(about || flag.key)} (\`${flag.key}\`, ${flag.type}, default ${comment(fallback)}) */`);
    const type = TYPE[flag.type];
    if (options.sdk === 'server') {
      lines.push(
        `export const ${name} = (client: Client, context?: EvaluationContext): Promise<${type}> =>`,
        `  client.${METHOD[flag.type]}(${JSON.stringify(flag.key)}, ${fallback}${flag.type === 'object' ? ' as JsonValue' : ''}, context);`,
      );
    } else {
      lines.push(
        `export const ${name} = (client: Client): ${type} =>`,
        `  client.${METHOD[flag.type]}(${JSON.stringify(flag.key)}, ${fallback}${flag.type === 'object' ? ' as JsonValue' : ''});`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** The OpenFeature CLI's manifest file (schema/v0/flag-manifest.json), for its generators in other languages. */
export function openFeatureManifest(flags: readonly ManifestEntry[]): string {
  const entries = Object.fromEntries(
    flags.map((flag) => [
      flag.key,
      {
        flagType: flag.type,
        defaultValue: flag.defaultValue,
        ...(flag.description ? { description: flag.description } : {}),
      },
    ]),
  );
  return `${JSON.stringify({ $schema: 'https://raw.githubusercontent.com/open-feature/cli/main/schema/v0/flag-manifest.json', flags: entries }, null, 2)}\n`;
}
