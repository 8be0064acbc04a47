import { reachOf } from '@bunting/contracts';

/**
 * What a domain event means for the snapshots an edge holds, from the one reach module (`reachOf` in the
 * contracts): none (users, access, tokens... never make an edge read anything), one environment, or all of them.
 */
export type Scope = { kind: 'none' } | { kind: 'all' } | { kind: 'environment'; environment: string };

type Event = Parameters<typeof reachOf>[0];

export function scopeOf(event: Event): Scope {
  const places = reachOf(event).places;
  switch (places.kind) {
    case 'none':
      return { kind: 'none' };
    case 'environment':
    case 'environment-everywhere':
      return { kind: 'environment', environment: places.environment };
    default:
      return { kind: 'all' };
  }
}

/** The flag an event is about alone, if it is about one: what SDKs see of other flags stays as it was. */
export const flagOf = (event: Event): string | null => reachOf(event).flag;
