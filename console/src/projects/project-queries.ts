import { useQuery } from '@tanstack/react-query';
import { CreateProject, UpdateManagedAsCode } from '@bunting/contracts';
import { checked } from '../api/checked.ts';
import { endpointQuery, type BodyOf } from '../api/endpoint.ts';
import { answer, api } from '../api/http.ts';
import { useChange } from '../ui/use-change.ts';

export const projectsQuery = () => endpointQuery('/api/admin/projects');
export const projectQuery = (project: string) =>
  endpointQuery('/api/admin/projects/{projectId}', { path: { projectId: project } });

export const useProjects = () => useQuery(projectsQuery());
export const useProject = (project: string) => useQuery(projectQuery(project));

export const useCreateProject = () =>
  useChange(
    (body: BodyOf<'/api/admin/projects', 'post'>) =>
      answer(api.POST('/api/admin/projects', { body: checked(CreateProject, body) })),
    { refresh: ['/api/admin/projects'], done: (project) => `Project ${project.name} created` },
  );

const codePath = '/api/admin/projects/{projectId}/managed-as-code' as const;

/** Whether the project is managed as code, and where its files are. */
export const useManagedAsCode = (project: string) =>
  useQuery({ ...endpointQuery(codePath, { path: { projectId: project } }), enabled: project !== '' });

export const useSetManagedAsCode = (project: string) =>
  useChange(
    (body: BodyOf<typeof codePath, 'put'>) =>
      answer(api.PUT(codePath, { params: { path: { projectId: project } }, body: checked(UpdateManagedAsCode, body) })),
    { refresh: [codePath], done: (saved) => (saved.enabled ? 'Managed as code' : 'Managed in the console again') },
  );
