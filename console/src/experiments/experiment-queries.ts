import { useQuery } from '@tanstack/react-query';
import { endpointQuery, type AnswerOf, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

const listPath = '/api/admin/projects/{projectId}/features/{featureName}/experiments' as const;
const onePath = '/api/admin/projects/{projectId}/features/{featureName}/experiments/{experimentId}' as const;
const stopPath = '/api/admin/projects/{projectId}/features/{featureName}/experiments/{experimentId}/stop' as const;

export type Experiment = AnswerOf<typeof listPath>['experiments'][number];
export type ExperimentResults = AnswerOf<typeof onePath>;
export type StartExperimentBody = BodyOf<typeof listPath, 'post'>;
export type StopExperimentBody = BodyOf<typeof stopPath, 'post'>;

export const useExperiments = (projectId: string, featureName: string) =>
  useQuery(endpointQuery(listPath, { path: { projectId, featureName } }));

/** A running experiment's results move as SDKs report: asked again every 15 s. */
export const useExperimentResults = (projectId: string, featureName: string, experimentId: string, running: boolean) =>
  useQuery({
    ...endpointQuery(onePath, { path: { projectId, featureName, experimentId } }),
    refetchInterval: running ? 15_000 : false,
  });

export const useStartExperiment = (projectId: string, featureName: string) =>
  useChange(
    (body: StartExperimentBody) => answer(api.POST(listPath, { params: { path: { projectId, featureName } }, body })),
    { refresh: [listPath], done: 'Experiment started' },
  );

export const useStopExperiment = (projectId: string, featureName: string) =>
  useChange(
    ({ experimentId, body }: { experimentId: string; body: StopExperimentBody }) =>
      answer(api.POST(stopPath, { params: { path: { projectId, featureName, experimentId } }, body })),
    { refresh: [listPath, onePath], done: 'Experiment stopped' },
  );
