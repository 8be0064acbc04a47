import type { AddonProvider, AddonView } from './addon-queries.ts';

/** The fields to send: what the form holds for the provider's parameters, empty optional ones left out. */
export function parametersToSend(
  provider: Pick<AddonProvider, 'parameters'>,
  values: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    provider.parameters.flatMap((parameter) => {
      const value = (values[parameter.name] ?? '').trim();
      return value === '' && !parameter.required ? [] : [[parameter.name, value]];
    }),
  );
}

/** How an integration is named in the list: where it sends (a masked URL says the service and channel instead). */
export function addonTarget(addon: Pick<AddonView, 'provider' | 'parameters' | 'id'>): string {
  const parameters = addon.parameters as Record<string, unknown>;
  const url = typeof parameters.url === 'string' && !parameters.url.startsWith('*') ? parameters.url : null;
  if (url) return url;
  if (typeof parameters.host === 'string')
    return `${addon.provider}: ${parameters.host}:${String(parameters.port ?? '')}`;
  const channel = parameters.defaultChannel ?? parameters.defaultChannels;
  if (typeof channel === 'string' && channel) return `${addon.provider}: ${channel}`;
  return `${addon.provider} #${addon.id}`;
}
