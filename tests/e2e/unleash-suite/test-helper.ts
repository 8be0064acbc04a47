import { agentOn, insideUnleash, serve } from './target.ts';

/**
 * Stands in for Unleash's test/e2e/helpers/test-helper.js when its e2e files run over HTTP: the app is a fresh
 * server (Bunting or Unleash 8.2) reached with the admin token, and the request helpers its tests call are written
 * again here over that agent. Custom configuration, authentication hooks and base paths cannot be given to a
 * server over HTTP; tests relying on them are not wire tests.
 */
type Agent = ReturnType<typeof agentOn>;

function requestHelpers(request: Agent) {
  const json = { 'Content-Type': 'application/json' };
  return {
    addStrategyToFeatureEnv: (body: object, environment: string, feature: string, project = 'default', status = 200) =>
      request
        .post(`/api/admin/projects/${project}/features/${feature}/environments/${environment}/strategies`)
        .send(body)
        .expect(status),
    createFeature: (feature: string | object, project = 'default', status = 201) =>
      request
        .post(`/api/admin/projects/${project}/features`)
        .send(typeof feature === 'string' ? { name: feature } : feature)
        .set(json)
        .expect(status),
    getFeatures: (name?: string, status = 200) =>
      request
        .get(`/api/admin/features${name ? `/${name}` : ''}`)
        .set(json)
        .expect(status),
    getProjectFeatures: (project = 'default', name?: string, status = 200) =>
      request
        .get(`/api/admin/projects/${project}/features${name ? `/${name}` : ''}`)
        .set(json)
        .expect(status),
    archiveFeature: (name: string, project = 'default', status = 202) =>
      request.delete(`/api/admin/projects/${project}/features/${name}`).set(json).expect(status),
    createContextField: (field: object, status = 201) => request.post('/api/admin/context').send(field).expect(status),
    linkProjectToEnvironment: (project: string, environment = 'default', status = 200) =>
      request.post(`/api/admin/projects/${project}/environments`).send({ environment }).expect(status),
    importToggles: (payload: object, status = 200) =>
      request.post('/api/admin/features-batch/import').send(payload).set(json).expect(status),
    addDependency: (child: string, parent: string | object, project = 'default', status = 200) =>
      request
        .post(`/api/admin/projects/${project}/features/${child}/dependencies`)
        .send(typeof parent === 'string' ? { feature: parent } : parent)
        .set(json)
        .expect(status),
    addTag: (feature: string, tag: { type: string; value: string }, status = 201) =>
      request.post(`/api/admin/features/${feature}/tags`).send(tag).set(json).expect(status),
    enableFeature: (feature: string, environment: string, project = 'default', status = 200) =>
      request.post(`/api/admin/projects/${project}/features/${feature}/environments/${environment}/on`).expect(status),
    favoriteFeature: (feature: string, project = 'default', status = 200) =>
      request.post(`/api/admin/projects/${project}/features/${feature}/favorites`).set(json).expect(status),
    createSegment: (body: object, status = 201) =>
      request.post('/api/admin/segments').send(body).set(json).expect(status),
    deleteSegment: (id: number, status = 204) => request.delete(`/api/admin/segments/${id}`).set(json).expect(status),
    updateSegment: (id: number, body: object, status = 204) =>
      request.put(`/api/admin/segments/${id}`).send(body).expect(status),
    getRecordedEvents: (query: Record<string, string> = {}, status = 200) => {
      const search = new URLSearchParams(query).toString();
      return request.get(`/api/admin/search/events${search ? `?${search}` : ''}`).expect(status);
    },
    login: (args: { email: string } | { username: string; password: string }) =>
      'email' in args
        ? request.post('/auth/demo/login').send({ email: args.email }).expect(200)
        : request.post('/auth/simple/login').send(args).expect(200),
  };
}

async function app() {
  const served = await serve();
  const request = agentOn(served);
  return {
    request,
    destroy: served.stop,
    services: insideUnleash('services'),
    config: { server: { baseUriPath: '' } },
    ...requestHelpers(request),
  };
}

export const setupApp = (_stores?: unknown) => app();
export const setupAppWithCustomConfig = (_stores?: unknown, _config?: unknown) => app();
export const setupAppWithAuth = (_stores?: unknown, _config?: unknown) => app();
export const setupAppWithCustomAuth = (_stores?: unknown, _hook?: unknown, _config?: unknown) => app();
export const setupAppWithBaseUrl = (_stores?: unknown, _base?: string) => app();
export const setupAppWithoutSupertest = (_stores?: unknown) => app();
export const insertLastSeenAt = async () => unreachable('the database');
export const insertFeatureEnvironmentsLastSeen = async () => unreachable('the database');
export const createUserWithRootRole = async () => unreachable("Unleash's stores");

function unreachable(what: string): never {
  throw new Error(`${what} is inside Unleash's process: not reachable over HTTP`);
}
