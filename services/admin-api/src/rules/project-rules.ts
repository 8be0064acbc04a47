import { ValidationError } from '@bunting/platform';

export type FeatureNaming = {
  pattern: string | null;
  example?: string | null | undefined;
  description?: string | null | undefined;
};

function compile(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return null;
  }
}

/** A project's naming pattern must be a valid regular expression, and its example must match it. */
export function checkFeatureNaming(naming: FeatureNaming | null | undefined): void {
  if (!naming?.pattern) return;
  const pattern = compile(naming.pattern);
  if (!pattern) throw ValidationError.field('featureNaming.pattern', 'is not a valid regular expression');
  if (naming.example && !pattern.test(naming.example)) {
    throw ValidationError.field('featureNaming.example', `"${naming.example}" does not match the pattern`);
  }
}

/** A new flag's name must match its project's naming pattern, when it has one (400 naming the field otherwise). */
export function checkFlagName(naming: FeatureNaming, name: string): void {
  if (!naming.pattern) return;
  // A pattern stored before it was checked and that no longer compiles lets every name through.
  const pattern = compile(naming.pattern) ?? /^.*$/;
  if (!pattern.test(name)) {
    const example = naming.example ? ` (for example ${naming.example})` : '';
    throw ValidationError.field(
      'name',
      `"${name}" does not match the project's naming pattern ${naming.pattern}${example}`,
    );
  }
}
