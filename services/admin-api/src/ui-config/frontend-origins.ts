import { FrontendSettings } from '@bunting/contracts';
import { ValidationError } from '@bunting/platform';
import { jsonSetting } from '../settings/json-setting.ts';

/** The frontend API's CORS origins as set through /api/admin/ui-config/cors. */
export const frontendSettings = jsonSetting('unleash.frontend-api.origins', FrontendSettings, {
  frontendApiOrigins: null,
});

/** "*" or an origin: scheme, host and optional port, nothing after. */
export function checkOrigins(origins: readonly string[]): string[] {
  return origins.map((origin, index) => {
    if (origin === '*') return origin;
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw ValidationError.field(`frontendApiOrigins.${index}`, `"${origin}" is not an origin`);
    }
    if (!['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, '')) {
      throw ValidationError.field(
        `frontendApiOrigins.${index}`,
        `"${origin}" must be an origin such as https://example.com`,
      );
    }
    return parsed.origin;
  });
}
