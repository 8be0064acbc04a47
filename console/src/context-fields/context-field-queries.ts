import { queryOptions, useQuery } from '@tanstack/react-query';
import { CreateContextField, UpdateContextField } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

const STALE_MS = 60_000;

export const contextFieldsQuery = () => queryOptions({ ...endpointQuery('/api/admin/context'), staleTime: STALE_MS });
export const useAllContextFields = () => useQuery(contextFieldsQuery());

/** The context fields a project's constraints may use: the instance's own and the project's. */
export const useContextFields = (project?: string) =>
  useQuery({
    ...contextFieldsQuery(),
    select: (fields) => fields.filter((field) => !field.project || field.project === project),
  });

const refresh = ['/api/admin/context'] as const;
type ContextFieldBody = {
  name: string;
  description: string | null;
  stickiness: boolean;
  legalValues: { value: string }[];
};

/** A new context field, or changes to one (by its current name). */
export const useSaveContextField = (existing: string | undefined) =>
  useChange(
    (body: ContextFieldBody) =>
      existing
        ? answer(
            api.PUT('/api/admin/context/{contextField}', {
              params: { path: { contextField: existing } },
              body: checked(UpdateContextField, body),
            }),
          )
        : answer(api.POST('/api/admin/context', { body: checked(CreateContextField, body) })),
    { refresh, done: (_answer, body) => `Context field ${body.name} saved` },
  );

export const useRemoveContextField = () =>
  useChange(
    (name: string) =>
      answer(api.DELETE('/api/admin/context/{contextField}', { params: { path: { contextField: name } } })),
    { refresh, done: 'Context field removed', failed: 'Not removed' },
  );
