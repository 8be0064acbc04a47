import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ContextField, Environment, FeatureTypeInfo, Segment, StrategyDefinition, Tag, TagType } from '@bunting/contracts';
import { get } from './http.ts';
import { referenceKeys } from './keys.ts';

// What many pages look up and that changes rarely: kept for a minute, then refreshed in the background.
const REFERENCE_STALE_MS = 60_000;

export const environmentsQuery = () => queryOptions({
  queryKey: referenceKeys.environments,
  queryFn: ({ signal }) => get<{ environments: Environment[] }>('/api/admin/environments', signal),
  select: (data) => data.environments,
  staleTime: REFERENCE_STALE_MS,
});

export const useEnvironments = () => useQuery(environmentsQuery());

export const strategyDefinitionsQuery = () => queryOptions({
  queryKey: referenceKeys.strategies,
  queryFn: ({ signal }) => get<{ strategies: StrategyDefinition[] }>('/api/admin/strategies', signal),
  select: (data) => data.strategies,
  staleTime: REFERENCE_STALE_MS,
});

export const useStrategyDefinitions = () => useQuery(strategyDefinitionsQuery());

export const contextFieldsQuery = () => queryOptions({
  queryKey: referenceKeys.contextFields,
  queryFn: ({ signal }) => get<ContextField[]>('/api/admin/context', signal),
  staleTime: REFERENCE_STALE_MS,
});

/** The context fields a project's constraints may use: the instance's own and the project's. */
export const useContextFields = (project?: string) => useQuery({
  ...contextFieldsQuery(),
  select: (fields) => fields.filter((field) => !field.project || field.project === project),
});

export const segmentsQuery = () => queryOptions({
  queryKey: referenceKeys.segments,
  queryFn: ({ signal }) => get<{ segments: Segment[] }>('/api/admin/segments', signal),
  select: (data) => data.segments,
  staleTime: REFERENCE_STALE_MS,
});

export const useSegments = () => useQuery(segmentsQuery());

export const tagTypesQuery = () => queryOptions({
  queryKey: referenceKeys.tagTypes,
  queryFn: ({ signal }) => get<{ tagTypes: TagType[] }>('/api/admin/tag-types', signal),
  select: (data) => data.tagTypes,
  staleTime: REFERENCE_STALE_MS,
});

export const useTagTypes = () => useQuery(tagTypesQuery());

export const tagsQuery = () => queryOptions({
  queryKey: referenceKeys.tags,
  queryFn: ({ signal }) => get<{ tags: Tag[] }>('/api/admin/tags', signal),
  select: (data) => data.tags,
  staleTime: REFERENCE_STALE_MS,
});

export const useTags = () => useQuery(tagsQuery());

export const featureTypesQuery = () => queryOptions({
  queryKey: referenceKeys.featureTypes,
  queryFn: ({ signal }) => get<{ types: FeatureTypeInfo[] }>('/api/admin/feature-types', signal),
  select: (data) => data.types,
  staleTime: REFERENCE_STALE_MS,
});

export const useFeatureTypes = () => useQuery(featureTypesQuery());
