import jsonPatch from 'fast-json-patch';
import type { PatchOperation } from '@bunting/contracts';
import { ValidationError } from '@bunting/platform';

/** Applies RFC 6902 operations to a copy of `document`; a bad operation is the caller's error, never a crash. */
export function applyJsonPatch<T>(document: T, operations: readonly PatchOperation[]): unknown {
  try {
    const copy = structuredClone(document);
    return jsonPatch.applyPatch(copy, operations as jsonPatch.Operation[], true, true).newDocument;
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'invalid patch';
    throw ValidationError.field('patch', message);
  }
}
