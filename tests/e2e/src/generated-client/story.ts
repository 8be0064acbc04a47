import createClient from 'openapi-fetch';
import type { paths } from './bunting-api.d.ts';

/**
 * A script written against the client generated from /docs/openapi.json (openapi-typescript + openapi-fetch): it
 * compiles only if the document describes these operations, their parameters and bodies as the script uses them.
 */
export async function configureThroughGeneratedClient(baseUrl: string, adminToken: string) {
  const api = createClient<paths>({ baseUrl, headers: { authorization: adminToken } });
  const project = await api.POST('/api/admin/projects', { body: { id: 'generated', name: 'Generated client' } });
  const flag = await api.POST('/api/admin/projects/{projectId}/features', {
    params: { path: { projectId: 'generated' } },
    body: { name: 'typed-flag', description: 'made by a generated client', type: 'release' },
  });
  const strategy = await api.POST(
    '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies',
    {
      params: { path: { projectId: 'generated', featureName: 'typed-flag', environment: 'development' } },
      body: {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: 'typed-flag' },
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['ada'] }],
      },
    },
  );
  const enabled = await api.POST(
    '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on',
    {
      params: { path: { projectId: 'generated', featureName: 'typed-flag', environment: 'development' } },
    },
  );
  const read = await api.GET('/api/admin/projects/{projectId}/features/{featureName}', {
    params: { path: { projectId: 'generated', featureName: 'typed-flag' } },
  });
  const missing = await api.GET('/api/admin/projects/{projectId}/features/{featureName}', {
    params: { path: { projectId: 'generated', featureName: 'no-such-flag' } },
  });
  return {
    statuses: [
      project.response.status,
      flag.response.status,
      strategy.response.status,
      enabled.response.status,
      read.response.status,
    ],
    flag: read.data
      ? {
          name: read.data.name,
          environments: read.data.environments.map((environment) => ({
            name: environment.name,
            enabled: environment.enabled,
          })),
        }
      : null,
    missing: { status: missing.response.status, error: missing.error },
  };
}
