import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Project } from '@bunting/contracts';
import { get, segment } from '../api/http.ts';
import { projectKeys } from '../api/keys.ts';

export const projectsQuery = () => queryOptions({
  queryKey: projectKeys.list(),
  queryFn: ({ signal }) => get<{ projects: Project[] }>('/api/admin/projects', signal),
});

export const projectQuery = (project: string) => queryOptions({
  queryKey: projectKeys.detail(project),
  queryFn: ({ signal }) => get<Project>(`/api/admin/projects/${segment(project)}`, signal),
});

export const useProjects = () => useQuery(projectsQuery());
export const useProject = (project: string) => useQuery(projectQuery(project));
