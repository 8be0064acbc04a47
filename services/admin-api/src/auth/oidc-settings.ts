import { z } from 'zod';
import { OidcSettingsInput } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';

export const OIDC_SETTING = 'unleash.auth.oidc';
const MASK = '********';

export const OidcSettings = OidcSettingsInput;
export type OidcSettings = z.infer<typeof OidcSettings>;

export async function loadOidcSettings(db: Queryable): Promise<OidcSettings> {
  const content = await db.maybeOneFirst(sql.type(z.object({ content: z.unknown() }))`
    select content from admin.settings where name = ${OIDC_SETTING}`);
  const parsed = OidcSettings.safeParse(content ?? {});
  return parsed.success ? parsed.data : {};
}

/** The settings as the API shows them: the client secret is never sent back in clear. */
export function publicOidcSettings(settings: OidcSettings): OidcSettings {
  return { enabled: false, ...settings, ...(settings.secret ? { secret: MASK } : {}) };
}

function withoutSecret(settings: OidcSettings) {
  const { secret: _secret, ...rest } = settings;
  return rest;
}

export async function saveOidcSettings({ tx, emit }: Change, input: OidcSettings): Promise<OidcSettings> {
  const before = await loadOidcSettings(tx);
  // Sending back the mask (or no secret) keeps the stored one.
  const secret = input.secret === undefined || input.secret === MASK ? before.secret : input.secret;
  const next: OidcSettings = { ...input, ...(secret !== undefined ? { secret } : {}) };
  const existed = await tx.exists(sql.unsafe`select 1 from admin.settings where name = ${OIDC_SETTING}`);
  await tx.query(sql.unsafe`insert into admin.settings (name, content) values (${OIDC_SETTING}, ${sql.jsonb(next)})
    on conflict (name) do update set content = excluded.content, updated_at = now()`);
  emit({
    type: existed ? 'setting-updated' : 'setting-created',
    data: { id: OIDC_SETTING, ...withoutSecret(next) },
    preData: existed ? { id: OIDC_SETTING, ...withoutSecret(before) } : null,
  });
  return publicOidcSettings(next);
}
