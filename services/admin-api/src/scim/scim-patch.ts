import { scimPatch, ScimError as PatchError, type ScimPatchOperation, type ScimResource } from 'scim-patch';
import type { ScimPatchRequest } from '@bunting/contracts';
import { stepReachesShared } from '@bunting/platform';
import { ScimError } from './scim-errors.ts';

/** The resource as the operations leave it (RFC 7644 §3.5.2); a path that does not fit it is the client's error. */
export function patched<T extends object>(resource: T, request: ScimPatchRequest): Record<string, unknown> {
  refuseSharedSteps(request);
  const operations = request.Operations.map((operation) => ({ ...operation })) as unknown as ScimPatchOperation[];
  try {
    return scimPatch(structuredClone(resource) as unknown as ScimResource, operations, {
      mutateDocument: true,
      treatMissingAsAdd: true,
    }) as unknown as Record<string, unknown>;
  } catch (error) {
    if (error instanceof PatchError) {
      const scimType =
        error.scimCode === 'noTarget' || error.scimCode === 'invalidPath' ? error.scimCode : 'invalidValue';
      throw new ScimError(400, error.message || 'The operations cannot be applied.', scimType);
    }
    throw new ScimError(400, `The operations cannot be applied: ${(error as Error).message}`, 'invalidValue');
  }
}

// Attribute names of a path: what is left once quoted filter values are taken out (`emails[type eq "work"].value`).
const ATTRIBUTE_NAME = /[A-Za-z_$][\w$-]*/g;
const attributeNames = (path: string) => path.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(ATTRIBUTE_NAME) ?? [];

/**
 * The patcher walks a path, and the keys of a value given without one, into the resource: a step such as
 * `__proto__` or `constructor.prototype` would take it to the prototype every object of the process shares. Such
 * a request is refused as an invalid path before anything is applied.
 */
function refuseSharedSteps(request: ScimPatchRequest): void {
  for (const [index, operation] of request.Operations.entries()) {
    const inPath = attributeNames(operation.path ?? '').find(stepReachesShared);
    if (inPath !== undefined)
      throw new ScimError(
        400,
        `Operations[${index}].path names "${inPath}", which is not an attribute.`,
        'invalidPath',
      );
    const inValue = sharedKeyIn(operation.value);
    if (inValue !== null)
      throw new ScimError(
        400,
        `Operations[${index}].value has the key "${inValue}", which is not an attribute.`,
        'invalidPath',
      );
  }
}

function sharedKeyIn(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const named = Array.isArray(value) ? undefined : attributeNames(key).find(stepReachesShared);
    if (named !== undefined) return key;
    const nested = sharedKeyIn(child);
    if (nested !== null) return nested;
  }
  return null;
}
