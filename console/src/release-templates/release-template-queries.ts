import { useQuery } from '@tanstack/react-query';
import { endpointQuery, type AnswerOf, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export type ReleaseTemplate = AnswerOf<'/api/admin/release-plan-templates/{templateId}'>;
export type ReleaseTemplateBody = BodyOf<'/api/admin/release-plan-templates', 'post'>;

const refresh = [
  '/api/admin/release-plan-templates',
  '/api/admin/release-plan-templates/{templateId}',
  '/api/admin/projects/{projectId}/release-templates',
] as const;

/** The global templates. */
export const useReleaseTemplates = () => useQuery(endpointQuery('/api/admin/release-plan-templates'));

/** The templates a project may apply: its own and the global ones. */
export const useProjectReleaseTemplates = (projectId: string) =>
  useQuery(
    endpointQuery('/api/admin/projects/{projectId}/release-templates', {
      path: { projectId },
      query: { include: 'root' },
    }),
  );

export const useReleaseTemplate = (templateId: string | undefined) =>
  useQuery({
    ...endpointQuery('/api/admin/release-plan-templates/{templateId}', { path: { templateId: templateId ?? '' } }),
    enabled: templateId !== undefined,
  });

export const useCreateReleaseTemplate = () =>
  useChange((body: ReleaseTemplateBody) => answer(api.POST('/api/admin/release-plan-templates', { body })), {
    refresh,
    done: (template) => `Release template ${template.name} created`,
  });

export const useUpdateReleaseTemplate = (templateId: string) =>
  useChange(
    (body: ReleaseTemplateBody) =>
      answer(api.PUT('/api/admin/release-plan-templates/{templateId}', { params: { path: { templateId } }, body })),
    { refresh, done: 'Release template saved' },
  );

export const useArchiveReleaseTemplate = () =>
  useChange(
    (templateId: string) =>
      answer(api.POST('/api/admin/release-plan-templates/archive/{templateId}', { params: { path: { templateId } } })),
    { refresh, done: 'Release template archived', failed: 'Not archived' },
  );

export const useDeleteReleaseTemplate = () =>
  useChange(
    (templateId: string) =>
      answer(api.DELETE('/api/admin/release-plan-templates/{templateId}', { params: { path: { templateId } } })),
    { refresh, done: 'Release template deleted', failed: 'Not deleted' },
  );
