import { useQuery } from '@tanstack/react-query';
import { CreateActionSet, CreateSignalEndpoint } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type AnswerOf, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

// Signal endpoints: where outside systems post signals, with their tokens and what they received.
export type SignalEndpointView = AnswerOf<'/api/admin/signal-endpoints'>['signalEndpoints'][number];

export const useSignalEndpoints = (enabled = true) =>
  useQuery({ ...endpointQuery('/api/admin/signal-endpoints'), enabled });

/** The newest signals an endpoint received, asked for every two seconds while shown. */
export const useReceivedSignals = (id: number) =>
  useQuery({
    ...endpointQuery('/api/admin/signal-endpoints/{id}/signals', { path: { id }, query: { limit: 20 } }),
    refetchInterval: 2000,
  });

const endpoints = ['/api/admin/signal-endpoints'] as const;

export const useCreateSignalEndpoint = () =>
  useChange(
    (body: BodyOf<'/api/admin/signal-endpoints', 'post'>) =>
      answer(api.POST('/api/admin/signal-endpoints', { body: checked(CreateSignalEndpoint, body) })),
    { refresh: endpoints, done: 'Signal endpoint created' },
  );

export const useSwitchSignalEndpoint = () =>
  useChange(
    (endpoint: { id: number; enabled: boolean }) =>
      endpoint.enabled
        ? answer(api.POST('/api/admin/signal-endpoints/{id}/off', { params: { path: { id: endpoint.id } } }))
        : answer(api.POST('/api/admin/signal-endpoints/{id}/on', { params: { path: { id: endpoint.id } } })),
    { refresh: endpoints, failed: 'Not saved' },
  );

export const useDeleteSignalEndpoint = () =>
  useChange((id: number) => answer(api.DELETE('/api/admin/signal-endpoints/{id}', { params: { path: { id } } })), {
    refresh: endpoints,
    done: 'Signal endpoint deleted',
    failed: 'Not deleted',
  });

export const useCreateSignalToken = (id: number) =>
  useChange(
    (name: string) =>
      answer(api.POST('/api/admin/signal-endpoints/{id}/tokens', { params: { path: { id } }, body: { name } })),
    { refresh: endpoints },
  );

export const useDeleteSignalToken = (id: number) =>
  useChange(
    (tokenId: number) =>
      answer(api.DELETE('/api/admin/signal-endpoints/{id}/tokens/{tokenId}', { params: { path: { id, tokenId } } })),
    { refresh: endpoints, done: 'Token deleted', failed: 'Not deleted' },
  );

// Action sets: what a matching signal switches in a project, as which service account.
export type ActionSetView = AnswerOf<'/api/admin/projects/{projectId}/actions'>['actions'][number];

export const useActionSets = (project: string, enabled: boolean) =>
  useQuery({ ...endpointQuery('/api/admin/projects/{projectId}/actions', { path: { projectId: project } }), enabled });

/** An action set's latest runs, asked for every two seconds while shown. */
export const useActionSetRuns = (project: string, id: number) =>
  useQuery({
    ...endpointQuery('/api/admin/projects/{projectId}/actions/{id}/events', {
      path: { projectId: project, id },
      query: { limit: 20 },
    }),
    refetchInterval: 2000,
  });

const sets = ['/api/admin/projects/{projectId}/actions'] as const;

export const useCreateActionSet = (project: string) =>
  useChange(
    (body: BodyOf<'/api/admin/projects/{projectId}/actions', 'post'>) =>
      answer(
        api.POST('/api/admin/projects/{projectId}/actions', {
          params: { path: { projectId: project } },
          body: checked(CreateActionSet, body),
        }),
      ),
    { refresh: sets, done: 'Action set created' },
  );

export const useSwitchActionSet = (project: string) =>
  useChange(
    (set: { id: number; enabled: boolean }) =>
      set.enabled
        ? answer(
            api.POST('/api/admin/projects/{projectId}/actions/{id}/off', {
              params: { path: { projectId: project, id: set.id } },
            }),
          )
        : answer(
            api.POST('/api/admin/projects/{projectId}/actions/{id}/on', {
              params: { path: { projectId: project, id: set.id } },
            }),
          ),
    { refresh: sets, failed: 'Not saved' },
  );

export const useDeleteActionSet = (project: string) =>
  useChange(
    (id: number) =>
      answer(
        api.DELETE('/api/admin/projects/{projectId}/actions/{id}', { params: { path: { projectId: project, id } } }),
      ),
    { refresh: sets, done: 'Action set deleted', failed: 'Not deleted' },
  );
