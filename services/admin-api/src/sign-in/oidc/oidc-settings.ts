import type { z } from 'zod';
import { OidcSettingsInput } from '@bunting/contracts';
import type { Change } from '../../events/changes.ts';
import { jsonSetting } from '../../settings/json-setting.ts';

const MASK = '********';

export const OidcSettings = OidcSettingsInput;
export type OidcSettings = z.infer<typeof OidcSettings>;

function withoutSecret(settings: OidcSettings) {
  const { secret: _secret, ...rest } = settings;
  return rest;
}

/** Events never carry the client secret. */
const oidcSetting = jsonSetting('unleash.auth.oidc', OidcSettings, {}, { eventData: withoutSecret });

export const loadOidcSettings = oidcSetting.load;

/** The settings as the API shows them: the client secret is never sent back in clear. */
export function publicOidcSettings(settings: OidcSettings): OidcSettings {
  return { enabled: false, ...settings, ...(settings.secret ? { secret: MASK } : {}) };
}

export async function saveOidcSettings(change: Change, input: OidcSettings): Promise<OidcSettings> {
  const before = await loadOidcSettings(change.tx);
  // Sending back the mask (or no secret) keeps the stored one.
  const secret = input.secret === undefined || input.secret === MASK ? before.secret : input.secret;
  return publicOidcSettings(await oidcSetting.save(change, { ...input, ...(secret !== undefined ? { secret } : {}) }));
}
