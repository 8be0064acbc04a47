import { ExternalImpactSource } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { impactStore } from './impact-store.ts';

const KEY = 'external-source';
const MASK = '********';

/**
 * The external source in force: the one an admin saved, else EXTERNAL_PROMETHEUS_IMPACT_METRICS_API (on when set),
 * else none.
 */
export async function loadExternalSource(db: Queryable, fromEnv: string | undefined): Promise<ExternalImpactSource> {
  const saved = ExternalImpactSource.safeParse(await impactStore.setting(db, KEY));
  if (saved.success) return saved.data;
  return fromEnv ? { enabled: true, url: fromEnv } : { enabled: false };
}

/** The source as answers show it: a password in the address is never sent back. */
export function publicExternalSource(source: ExternalImpactSource): ExternalImpactSource {
  if (!source.url) return source;
  const url = new URL(source.url);
  if (url.password) url.password = MASK;
  return { ...source, url: url.href };
}

/** Saves the source; an address sent back with the masked password keeps the stored password. */
export async function saveExternalSource(
  tx: Queryable,
  input: ExternalImpactSource,
  fromEnv: string | undefined,
): Promise<ExternalImpactSource> {
  const before = await loadExternalSource(tx, fromEnv);
  let url = input.url;
  if (url && before.url) {
    const next = new URL(url);
    if (decodeURIComponent(next.password) === MASK) {
      next.password = new URL(before.url).password;
      url = next.href;
    }
  }
  const saved = { enabled: input.enabled, ...(url ? { url } : {}) };
  await impactStore.saveSetting(tx, KEY, saved);
  return saved;
}
