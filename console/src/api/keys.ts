/** Query keys, one factory per resource, so a mutation invalidates exactly what it changed. */
export const sessionKeys = { me: ['session', 'me'] as const };

export const projectKeys = {
  all: ['projects'] as const,
  list: () => [...projectKeys.all, 'list'] as const,
  detail: (project: string) => [...projectKeys.all, 'detail', project] as const,
};

export const flagKeys = {
  all: ['flags'] as const,
  search: (project: string, query: unknown) => [...flagKeys.all, 'search', project, query] as const,
  detail: (project: string, name: string) => [...flagKeys.all, 'detail', project, name] as const,
  history: (name: string) => [...flagKeys.all, 'history', name] as const,
};

export const referenceKeys = {
  environments: ['reference', 'environments'] as const,
  strategies: ['reference', 'strategies'] as const,
  contextFields: ['reference', 'context-fields'] as const,
  segments: ['reference', 'segments'] as const,
  tagTypes: ['reference', 'tag-types'] as const,
  tags: ['reference', 'tags'] as const,
  featureTypes: ['reference', 'feature-types'] as const,
  uiConfig: ['reference', 'ui-config'] as const,
};
