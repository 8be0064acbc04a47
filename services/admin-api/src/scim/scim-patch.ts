import { scimPatch, ScimError as PatchError, type ScimPatchOperation, type ScimResource } from 'scim-patch';
import type { ScimPatchRequest } from '@bunting/contracts';
import { ScimError } from './scim-errors.ts';

/** The resource as the operations leave it (RFC 7644 §3.5.2); a path that does not fit it is the client's error. */
export function patched<T extends object>(resource: T, request: ScimPatchRequest): Record<string, unknown> {
  const operations = request.Operations.map((operation) => ({ ...operation })) as unknown as ScimPatchOperation[];
  try {
    return scimPatch(structuredClone(resource) as unknown as ScimResource, operations, { mutateDocument: true, treatMissingAsAdd: true }) as unknown as Record<string, unknown>;
  } catch (error) {
    if (error instanceof PatchError) {
      const scimType = error.scimCode === 'noTarget' || error.scimCode === 'invalidPath' ? error.scimCode : 'invalidValue';
      throw new ScimError(400, error.message || 'The operations cannot be applied.', scimType);
    }
    throw new ScimError(400, `The operations cannot be applied: ${(error as Error).message}`, 'invalidValue');
  }
}
