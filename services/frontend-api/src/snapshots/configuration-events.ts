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

/** Events about one flag: what SDKs see of other flags stays as it was, so only that flag need be read again. */
const ABOUT_ONE_FLAG = new Set([
  'feature-created', 'feature-deleted', 'feature-updated', 'feature-metadata-updated', 'feature-variants-updated',
  'feature-environment-variants-updated', 'feature-project-change', 'feature-archived', 'feature-revived', 'feature-tagged',
  'feature-untagged', 'feature-strategy-update', 'feature-strategy-add', 'feature-strategy-remove', 'strategy-order-changed',
  'feature-stale-on', 'feature-stale-off', 'feature-environment-enabled', 'feature-environment-disabled',
  'feature-dependency-added', 'feature-dependency-removed', 'feature-dependencies-removed',
]);

/** The flag an SDK-relevant event is about alone, if it is about one. */
export function flagOf(event: { type: string; featureName?: string | null }): string | null {
  return event.featureName && ABOUT_ONE_FLAG.has(event.type) ? event.featureName : null;
}
