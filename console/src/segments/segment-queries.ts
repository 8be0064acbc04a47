import { queryOptions, useQuery } from '@tanstack/react-query';
import { UpsertSegment } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

const STALE_MS = 60_000;

export const segmentsQuery = () =>
  queryOptions({ ...endpointQuery('/api/admin/segments'), select: (data) => data.segments, staleTime: STALE_MS });
export const useSegments = () => useQuery(segmentsQuery());

/** The strategies that use a segment (none asked for a segment not made yet). */
export const useSegmentUse = (id: number | undefined) =>
  useQuery({
    ...endpointQuery('/api/admin/segments/{id}/strategies', { path: { id: id ?? 0 } }),
    enabled: id !== undefined,
  });

// A segment's change reaches the strategies that use it, so the flags' pages read it again too.
const refresh = ['/api/admin/segments', '/api/admin/projects/{projectId}/features/{featureName}'] as const;
type SegmentBody = BodyOf<'/api/admin/segments', 'post'>;

export const useSaveSegment = (id: number | undefined) =>
  useChange(
    (body: SegmentBody) =>
      id !== undefined
        ? answer(api.PUT('/api/admin/segments/{id}', { params: { path: { id } }, body: checked(UpsertSegment, body) }))
        : answer(api.POST('/api/admin/segments', { body: checked(UpsertSegment, body) })),
    { refresh, done: (_answer, body) => `Segment ${body.name} saved` },
  );

export const useRemoveSegment = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/segments/{id}', { params: { path: { id } } })), {
    refresh,
    done: 'Segment removed',
    failed: 'Not removed',
  });
