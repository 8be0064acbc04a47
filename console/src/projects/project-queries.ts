import { useQuery } from '@tanstack/react-query';
import { CreateProject } from '@bunting/contracts';
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
