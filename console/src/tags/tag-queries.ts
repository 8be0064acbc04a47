import { queryOptions, useQuery } from '@tanstack/react-query';
import { CreateTagType } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useFlagChange } from '../feature-state/flag-queries.ts';
import { useChange } from '../ui/use-change.ts';

const STALE_MS = 60_000;

export const tagTypesQuery = () =>
  queryOptions({ ...endpointQuery('/api/admin/tag-types'), select: (data) => data.tagTypes, staleTime: STALE_MS });
export const useTagTypes = () => useQuery(tagTypesQuery());

export const tagsQuery = () =>
  queryOptions({ ...endpointQuery('/api/admin/tags'), select: (data) => data.tags, staleTime: STALE_MS });
export const useTags = () => useQuery(tagsQuery());

const refresh = ['/api/admin/tag-types', '/api/admin/tags'] as const;

export const useCreateTagType = () =>
  useChange(
    (body: BodyOf<'/api/admin/tag-types', 'post'>) =>
      answer(api.POST('/api/admin/tag-types', { body: checked(CreateTagType, body) })),
    { refresh, done: 'Tag type created' },
  );

export const useDeleteTagType = () =>
  useChange((name: string) => answer(api.DELETE('/api/admin/tag-types/{name}', { params: { path: { name } } })), {
    refresh,
    done: 'Tag type deleted',
    failed: 'Not deleted',
  });

type FeatureTag = { type: string; value: string };

/** A flag tagged: the flag's page and lists read again (they show its tags), and the tags known. */
export const useAddFeatureTag = (flag: string) =>
  useFlagChange(
    (tag: FeatureTag) =>
      answer(
        api.POST('/api/admin/features/{featureName}/tags', { params: { path: { featureName: flag } }, body: tag }),
      ),
    (tag) => `Tag ${tag.type}:${tag.value} added`,
  );

export const useRemoveFeatureTag = (flag: string) =>
  useFlagChange(
    (tag: FeatureTag) =>
      answer(
        api.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', {
          params: { path: { featureName: flag, type: tag.type, value: tag.value } },
        }),
      ),
    (tag) => `Tag ${tag.type}:${tag.value} removed`,
  );
