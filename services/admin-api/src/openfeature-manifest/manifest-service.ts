import type { ManifestDefaultValue, ManifestFlag, ManifestFlagType, UpdateManifestFlag } from '@bunting/contracts';
import { DomainError, NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { featureService } from '../features/feature-service.ts';
import { manifestStore, type ManifestRow } from './manifest-store.ts';

/** A refusal in the manifest's terms: a code the CLI can read beside the message. */
export class ManifestConflict extends DomainError {
  constructor(message: string, detail?: string) {
    super(409, 'NameExistsError', message, detail ? { details: [{ path: 'key', message: detail }] } : {});
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A flag made without the manifest: typed from its variants' payloads (none: a boolean, off by default). */
function derived(row: ManifestRow): { type: ManifestFlagType; defaultValue: ManifestDefaultValue } {
  const types = new Set(row.payloadTypes ?? []);
  const first = row.firstPayload ?? '';
  if (types.size === 0) return { type: 'boolean', defaultValue: false };
  if (types.size === 1 && types.has('json')) {
    try {
      const parsed: unknown = JSON.parse(first);
      if (isPlainObject(parsed)) return { type: 'object', defaultValue: parsed };
    } catch {
      // A payload that is not an object is read as text below.
    }
    return { type: 'object', defaultValue: {} };
  }
  if (types.size === 1 && types.has('number')) {
    const value = Number(first);
    if (!Number.isFinite(value)) return { type: 'integer', defaultValue: 0 };
    return { type: Number.isInteger(value) ? 'integer' : 'float', defaultValue: value };
  }
  return { type: 'string', defaultValue: first };
}

export function manifestFlagOf(row: ManifestRow): ManifestFlag {
  const typed =
    row.flagType === null
      ? derived(row)
      : { type: row.flagType as ManifestFlagType, defaultValue: row.defaultValue as ManifestDefaultValue };
  return {
    key: row.name,
    name: row.displayName ?? row.name,
    type: typed.type,
    description: row.description,
    defaultValue: typed.defaultValue,
  };
}

export function updatedAtOf(row: ManifestRow): string {
  return row.updatedAt ?? row.createdAt;
}

/** The default value must be of the flag's type. */
function checkDefault(type: ManifestFlagType, value: ManifestDefaultValue): void {
  const fits =
    type === 'boolean'
      ? typeof value === 'boolean'
      : type === 'string'
        ? typeof value === 'string'
        : type === 'integer'
          ? Number.isInteger(value)
          : type === 'float'
            ? typeof value === 'number'
            : isPlainObject(value);
  if (!fits)
    throw ValidationError.field(
      'defaultValue',
      `must be a${type === 'integer' || type === 'object' ? 'n' : ''} ${type}`,
    );
}

async function requireRow(db: Queryable, key: string): Promise<ManifestRow> {
  const row = await manifestStore.get(db, key);
  if (!row) throw new NotFoundError(`Flag "${key}" was not found.`);
  return row;
}

function recordManifest(change: Change, row: ManifestRow, before: ManifestFlag | null, after: ManifestFlag) {
  // The closed event list has no manifest events: the flag's metadata changed, so that is what is recorded.
  const shown = (flag: ManifestFlag | null) =>
    flag && { name: flag.name, type: flag.type, defaultValue: flag.defaultValue };
  change.emit({
    type: 'feature-metadata-updated',
    project: row.project,
    featureName: row.name,
    data: { name: row.name, openFeature: shown(after) },
    preData: { name: row.name, openFeature: shown(before) },
  });
}

export const manifestService = {
  async list(db: Queryable, projects: readonly string[] | null): Promise<ManifestFlag[]> {
    return (await manifestStore.list(db, projects)).map(manifestFlagOf);
  },

  /** The flag as the manifest shows it, or null when there is none. */
  async find(db: Queryable, key: string): Promise<ManifestRow | null> {
    return manifestStore.get(db, key);
  },

  async create(change: Change, project: string, input: ManifestFlag) {
    checkDefault(input.type, input.defaultValue);
    const existing = await manifestStore.get(change.tx, input.key);
    if (existing?.archivedAt) {
      throw new ManifestConflict(
        `Flag with key "${input.key}" is archived. Revive it from the archive or choose a new key.`,
        'Flag exists but is archived. Revive it to reuse this key.',
      );
    }
    if (existing)
      throw new ManifestConflict(`Flag with key "${input.key}" already exists.`, 'Flag key already exists.');
    await featureService.create(change, project, { name: input.key, description: input.description ?? null });
    const displayName = input.name && input.name !== input.key ? input.name : null;
    await manifestStore.upsert(change.tx, {
      name: input.key,
      flagType: input.type,
      defaultValue: input.defaultValue,
      displayName,
    });
    const row = (await manifestStore.get(change.tx, input.key))!;
    const flag = manifestFlagOf(row);
    recordManifest(change, row, null, flag);
    return { flag, updatedAt: updatedAtOf(row) };
  },

  /** Replaces what the manifest says of a flag; the type never changes. Nothing changed writes nothing. */
  async update(change: Change, key: string, input: UpdateManifestFlag) {
    if (input.key !== key) {
      throw new ValidationError('Flag key in path and payload must match.', [
        { path: 'key', message: 'Path key and payload key differ.' },
      ]);
    }
    const before = await requireRow(change.tx, key);
    if (before.archivedAt) {
      throw new ManifestConflict(
        `Flag "${key}" is archived. Revive it before updating.`,
        'Archived flags cannot be updated through the manifest API.',
      );
    }
    const current = manifestFlagOf(before);
    if (input.type !== current.type) {
      throw new ManifestConflict(`Flag type cannot be changed from ${current.type} to ${input.type}.`);
    }
    const defaultValue = input.defaultValue ?? current.defaultValue;
    checkDefault(input.type, defaultValue);
    const description = input.description === undefined ? before.description : input.description;
    if ((description ?? null) !== (before.description ?? null)) {
      await featureService.update(change, before.project, key, { description });
    }
    const name = input.name ?? current.name ?? key;
    const next: ManifestFlag = { ...current, name, description, defaultValue };
    const manifestChanged =
      name !== current.name || JSON.stringify(defaultValue) !== JSON.stringify(current.defaultValue);
    if (manifestChanged) {
      await manifestStore.upsert(change.tx, {
        name: key,
        flagType: input.type,
        defaultValue,
        displayName: name !== key ? name : null,
      });
      recordManifest(change, before, current, next);
    }
    const after = (await manifestStore.get(change.tx, key))!;
    return { flag: manifestFlagOf(after), updatedAt: updatedAtOf(after) };
  },

  /** Delete archives, as everywhere in Unleash's model; an archived flag can be revived. */
  async archive(change: Change, key: string) {
    const before = await requireRow(change.tx, key);
    if (before.archivedAt) {
      throw new ManifestConflict(
        `Flag "${key}" is already archived.`,
        'Flag is already archived. Revive it to use it again.',
      );
    }
    await featureService.archive(change, before.project, key);
    const after = (await manifestStore.get(change.tx, key))!;
    return {
      message: `Flag "${key}" archived. Revive it from the archive if needed.`,
      archivedAt: after.archivedAt,
    };
  },
};
