import type { z } from 'zod';
import { SamlSettingsInput } from '@bunting/contracts';
import type { Change } from '../../events/changes.ts';
import { jsonSetting } from '../../settings/json-setting.ts';

export type SamlSettings = z.infer<typeof SamlSettingsInput>;

// Unleash's setting name; the certificate is the provider's public one, so events may carry all of it.
const samlSetting = jsonSetting('unleash.enterprise.auth.saml', SamlSettingsInput, {});

export const loadSamlSettings = samlSetting.load;
export const saveSamlSettings = (change: Change, input: SamlSettings) => samlSetting.save(change, input);

/** What the identity provider is told of this service provider: its entity id, where assertions are posted. */
export function serviceProvider(baseUrl: string) {
  return {
    spEntityId: new URL('/auth/saml/metadata', baseUrl).toString(),
    acsUrl: new URL('/auth/saml/callback', baseUrl).toString(),
    metadataUrl: new URL('/auth/saml/metadata', baseUrl).toString(),
  };
}

/** A PEM certificate or its bare base64 body, as providers' consoles give either. */
export const certificateBody = (certificate: string) =>
  certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
