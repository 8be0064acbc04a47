import type { AddonInput } from '@bunting/contracts';
import { NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { addonStore, type AddonRow } from './addon-store.ts';
import { MASK, PROVIDERS, isSensitive, providerNamed } from './addon-providers.ts';

/** An addon as the API shows it and events record it: secrets (authorization, extra headers) masked. */
export function addonView(row: AddonRow) {
  const parameters = Object.fromEntries(
    Object.entries(row.parameters).map(([name, value]) => [name, isSensitive(row.provider, name) ? MASK : value]),
  );
  return {
    id: row.id,
    provider: row.provider,
    description: row.description,
    enabled: row.enabled,
    parameters,
    events: row.events,
    projects: row.projects,
    environments: row.environments,
  };
}

export async function requireAddon(db: Queryable, id: number): Promise<AddonRow> {
  const row = await addonStore.get(db, id);
  if (!row) throw new NotFoundError(`Could not find addon with id ${id}`);
  return row;
}

/** Checks the provider and its parameters; a masked secret sent back keeps the stored one. */
function prepare(input: AddonInput, before: AddonRow | null) {
  const provider = providerNamed(input.provider);
  if (!provider)
    throw ValidationError.field(
      'provider',
      `unknown provider ${input.provider}; available: ${Object.keys(PROVIDERS).join(', ')}`,
    );
  const parameters = Object.fromEntries(
    Object.entries(input.parameters).map(([name, value]) => [
      name,
      value === MASK && before ? before.parameters[name] : value,
    ]),
  );
  const parsed = provider.parameters.safeParse(parameters);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw ValidationError.field(['parameters', ...issue.path].join('.'), issue.message);
  }
  if (typeof parsed.data.customHeaders === 'string' && parsed.data.customHeaders.trim() !== '') {
    try {
      const headers: unknown = JSON.parse(parsed.data.customHeaders);
      if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) throw new Error('not an object');
    } catch {
      throw ValidationError.field('parameters.customHeaders', 'must be a JSON object of header names to values');
    }
  }
  return {
    provider: input.provider,
    description: input.description ?? null,
    enabled: input.enabled,
    parameters: parsed.data,
    events: [...new Set(input.events)],
    projects: input.projects ?? [],
    environments: input.environments ?? [],
  };
}

export const addonService = {
  async create({ tx, emit }: Change, input: AddonInput) {
    const created = await addonStore.insert(tx, prepare(input, null));
    emit({ type: 'addon-config-created', data: addonView(created) });
    return addonView(created);
  },

  async update({ tx, emit }: Change, id: number, input: AddonInput) {
    const before = await requireAddon(tx, id);
    const after = await addonStore.update(tx, id, prepare(input, before));
    emit({ type: 'addon-config-updated', data: addonView(after), preData: addonView(before) });
    return addonView(after);
  },

  async delete({ tx, emit }: Change, id: number) {
    const before = await requireAddon(tx, id);
    await addonStore.delete(tx, id);
    emit({ type: 'addon-config-deleted', preData: addonView(before) });
  },
};
