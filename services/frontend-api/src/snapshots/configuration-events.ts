/**
 * Which domain events change what SDKs see, and where: an event carrying an environment changes that
 * environment only; feature, segment, project and environment events without one change every environment.
 */
const SDK_RELEVANT = [
  /^feature-/, /^features-imported$/, /^strategy-order-changed$/, /^segment-/, /^project-/, /^environment-/,
  /^drop-/, /-import$/, /^default-strategy-updated$/,
];
// Tags matter: SDKs may ask for flags by tag.
const IRRELEVANT = new Set(['feature-favorited', 'feature-unfavorited', 'project-favorited',
  'project-unfavorited', 'feature-completed', 'feature-uncompleted', 'features-exported', 'feature-potentially-stale-on']);

export type Scope = { kind: 'none' } | { kind: 'all' } | { kind: 'environment'; environment: string };

export function scopeOf(event: { type: string; environment?: string | null }): Scope {
  if (IRRELEVANT.has(event.type) || !SDK_RELEVANT.some((pattern) => pattern.test(event.type))) return { kind: 'none' };
  if (event.type === 'default-strategy-updated') return { kind: 'none' };
  if (event.environment && !event.type.startsWith('project-') && !event.type.startsWith('environment-')) {
    return { kind: 'environment', environment: event.environment };
  }
  return { kind: 'all' };
}
