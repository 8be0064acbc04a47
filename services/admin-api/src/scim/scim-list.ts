import { SCIM_SCHEMAS } from '@bunting/contracts';
import { filter as predicateOf, parse, type Filter } from 'scim2-parse-filter';
import { ScimError } from './scim-errors.ts';

// Compared without regard to case, as userName and displayName are (caseExact false); ids differ in more than case.
function lowered(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map(lowered);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, lowered(entry)]));
  return value;
}

function matcher(text: string): (resource: unknown) => boolean {
  let ast: Filter;
  try {
    ast = parse(text);
  } catch (error) {
    throw new ScimError(400, `The filter cannot be read: ${(error as Error).message}`, 'invalidFilter');
  }
  const test = predicateOf(lowered(ast) as Filter);
  return (resource) => test(lowered(resource));
}

/** A ListResponse of the resources the filter matches, from startIndex (1-based), at most count of them. */
export function listResponse<T>(
  resources: readonly T[],
  query: { filter?: string | undefined; startIndex?: number | undefined; count?: number | undefined },
) {
  const matched = query.filter ? resources.filter(matcher(query.filter)) : [...resources];
  const startIndex = query.startIndex ?? 1;
  const page = matched.slice(startIndex - 1, startIndex - 1 + (query.count ?? 100));
  return {
    schemas: [SCIM_SCHEMAS.list],
    totalResults: matched.length,
    startIndex,
    itemsPerPage: page.length,
    Resources: page,
  };
}
